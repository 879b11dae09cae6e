/**
 * A job's artifacts to download, and its trace opened in Playwright's own trace viewer (served by the service at
 * `/trace/`, fetching the trace from the same origin with the session). Names are the run's text.
 */
import type { Artifact } from './job-view.js';
import { downloadHref, formatBytes, isTrace, traceViewerHref } from './links.js';

export function ArtifactList({ artifacts }: { artifacts: readonly Artifact[] }) {
  if (artifacts.length === 0) return <p className="muted">No artifacts.</p>;
  const traces = artifacts.filter(isTrace);
  return (
    <>
      {traces.length > 0 ? (
        <div className="actions">
          {traces.map((trace) => {
            const href = traceViewerHref(trace.downloadPath, window.location.origin);
            return href === undefined ? null : (
              <a key={trace.id} className="button primary" href={href} target="_blank" rel="noopener">
                Open trace{traces.length > 1 ? ` ${trace.name}` : ''} in the trace viewer
              </a>
            );
          })}
        </div>
      ) : null}
      <details className="artifacts">
        <summary>
          All {artifacts.length} artifact{artifacts.length === 1 ? '' : 's'} to download
        </summary>
        <ul>
          {artifacts.map((artifact) => {
            const href = downloadHref(artifact.downloadPath);
            return (
              <li key={artifact.id}>
                {href === undefined ? (
                  <span className="job-text">{artifact.name}</span>
                ) : (
                  <a href={href} download={artifact.name}>
                    {artifact.name}
                  </a>
                )}{' '}
                <span className="muted">
                  {artifact.kind.replaceAll('_', ' ')}
                  {artifact.stepIndex !== null ? ` · step ${artifact.stepIndex + 1}` : ''}
                  {artifact.sizeBytes > 0 ? ` · ${formatBytes(artifact.sizeBytes)}` : ''}
                </span>
              </li>
            );
          })}
        </ul>
      </details>
    </>
  );
}
