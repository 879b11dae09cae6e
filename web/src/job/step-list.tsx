/**
 * The steps of a run, from its events (job-progress.ts): each with its outcome, when it started and how long it
 * took, why it failed (with expected and actual), and its screenshots, loaded lazily as they scroll into view.
 * Virtualised: a run of hundreds of steps renders the few in view.
 */
import { formatDuration, formatTime } from '../format.js';
import { Comparison } from './comparison.js';
import type { StepView } from './job-progress.js';
import type { Artifact } from './job-view.js';
import { downloadHref, isScreenshot } from './links.js';
import { VirtualList } from './virtual-list.js';

const STATE_TEXT: Record<StepView['state'], string> = { running: 'running', passed: 'passed', failed: 'failed' };

function Screenshots({ step, shots }: { step: StepView; shots: readonly Artifact[] }) {
  if (shots.length === 0) return null;
  return (
    <div className="shots">
      {shots.map((shot) => {
        const href = downloadHref(shot.downloadPath);
        if (href === undefined) return null;
        return (
          <figure key={shot.id}>
            <img src={href} loading="lazy" decoding="async" width={320} height={200} alt={`Screenshot of step ${step.index + 1}: ${step.description}`} />
            <figcaption className="muted">{shot.name}</figcaption>
          </figure>
        );
      })}
    </div>
  );
}

function StepRow({ step, shots }: { step: StepView; shots: readonly Artifact[] }) {
  return (
    <article className={`step ${step.state}`} aria-label={`Step ${step.index + 1}`}>
      <div className="step-head">
        <span className="step-number">{step.index + 1}</span>
        <span className={`status ${step.state}`}>{STATE_TEXT[step.state]}</span>
        <span className="job-text step-description">{step.description}</span>
      </div>
      <p className="muted step-times">
        <time dateTime={step.startedAt}>{formatTime(step.startedAt)}</time>
        {step.ms !== undefined ? ` · ${formatDuration(step.ms)}` : step.state === 'running' ? ' · running…' : ''}
        {step.action ? ` · ${step.action}` : ''}
        {step.attempt !== undefined && step.attempt > 1 ? ` · attempt ${step.attempt}` : ''}
        {step.healed ? ' · healed' : ''}
        {step.disputed ? ' · failure disputed (not a bug), the run went on' : ''}
      </p>
      {step.state === 'failed' && step.message ? (
        <p className="job-text step-message">
          {step.failureKind ? <span className="muted">{step.failureKind}: </span> : null}
          {step.message}
        </p>
      ) : null}
      {step.expected !== undefined && step.actual !== undefined ? <Comparison expected={step.expected} actual={step.actual} /> : null}
      <Screenshots step={step} shots={shots} />
    </article>
  );
}

export function StepList({ steps, artifacts, live }: { steps: readonly StepView[]; artifacts: readonly Artifact[]; live: boolean }) {
  const shotsByStep = new Map<number, Artifact[]>();
  for (const artifact of artifacts) {
    if (artifact.stepIndex === null || !isScreenshot(artifact)) continue;
    const list = shotsByStep.get(artifact.stepIndex) ?? [];
    list.push(artifact);
    shotsByStep.set(artifact.stepIndex, list);
  }
  if (steps.length === 0) return <p className="muted">{live ? 'No step has started yet.' : 'This job ran no steps.'}</p>;
  return (
    <VirtualList
      items={steps}
      label="Steps"
      keyOf={(step) => step.index}
      estimateSize={160}
      follow={live}
      testId="steps"
      renderItem={(step) => <StepRow step={step} shots={shotsByStep.get(step.index) ?? []} />}
    />
  );
}
