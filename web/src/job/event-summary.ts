/**
 * One line of text for each event of a job's history, for the page's event log. Text only (React renders it as
 * text); an event this page does not know shows its data as compact JSON, cut short.
 */
import type { JobEvent } from './merge-events.js';

const MAX = 400;
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const cut = (value: string) => (value.length > MAX ? `${value.slice(0, MAX - 1)}…` : value);
const stepNo = (data: Record<string, unknown>) => (num(data.index) === undefined ? '?' : String(num(data.index)! + 1));
const took = (ms: number | undefined) => (ms === undefined ? '' : ` in ${ms} ms`);

export function eventSummary(event: JobEvent): string {
  const { data } = event;
  switch (event.type) {
    case 'job.created':
      return cut(`Created${text(data.trigger) ? ` (trigger ${text(data.trigger)})` : ''}`);
    case 'job.started':
      return `Started${num(data.attempt) !== undefined ? ` (attempt ${num(data.attempt)})` : ''}`;
    case 'job.resumed':
      return `Resumed by a new attempt${num(data.attempt) !== undefined ? ` (${num(data.attempt)})` : ''}`;
    case 'step.started':
      return cut(`Step ${stepNo(data)} started: ${text(data.description) ?? ''}`);
    case 'step.passed':
      return `Step ${stepNo(data)} passed${took(num(data.ms))}`;
    case 'step.failed':
      return cut(`Step ${stepNo(data)} failed${took(num(data.ms))}: ${text(data.message) ?? text(data.kind) ?? ''}`);
    case 'page.visited':
      return cut(`Visited ${text(data.title) || '(no title)'} — ${text(data.url) ?? ''}${num(data.status) !== undefined ? ` (HTTP ${num(data.status)})` : ''}`);
    case 'artifact.created':
      return cut(`Stored ${text(data.kind) ?? 'a file'}: ${text(data.name) ?? ''}`);
    case 'finding.recorded':
      return cut(`Finding (${text(data.severity) ?? '?'}): ${text(data.title) ?? ''}`);
    case 'job.errored':
      return cut(`Errored: ${text(data.reason) ?? ''}`);
    case 'job.cancelled':
      return cut(`Cancelled${text(data.message) ? `: ${text(data.message)}` : ''}`);
    case 'run.retrying':
      return cut(`Retrying: ${text(data.reason) ?? ''}`);
    case 'job.passed':
    case 'job.failed': {
      const findings = num(data.findings);
      const errors = num(data.errors);
      const counted = findings === undefined ? '' : `: ${findings} finding${findings === 1 ? '' : 's'}${errors === undefined ? '' : `, ${errors} error${errors === 1 ? '' : 's'}`}`;
      return `${event.type === 'job.passed' ? 'Passed' : 'Failed'}${counted}`;
    }
    case 'planner.called': {
      const model = text(data.model);
      const tokens = num(data.totalTokens);
      const ms = num(data.durationMs);
      const parts = [model, tokens === undefined ? undefined : `${tokens} tokens`, ms === undefined ? undefined : `${ms} ms`, text(data.outcome)].filter(Boolean);
      return cut(`Planner called${parts.length > 0 ? ` (${parts.join(', ')})` : ''}${text(data.reason) ? `: ${text(data.reason)}` : ''}`);
    }
    case 'check.compiled':
      return `Compiled version ${num(data.version) ?? '?'} of its check (${num(data.steps) ?? '?'} steps)`;
    case 'check.proposed':
      return `Proposed version ${num(data.version) ?? '?'} of its check (healed steps)`;
    case 'job.answered':
      return cut(`Answered by job ${text(data.childJobId) ?? ''}`);
    default: {
      const json = JSON.stringify(data);
      return cut(json === '{}' ? '' : json);
    }
  }
}
