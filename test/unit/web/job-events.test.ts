/**
 * The job page's pure reading of a history (web/src/job): merging the view's events with streamed lines (ordered,
 * each index once), the steps, pages and artifacts the events tell, the live status, and the only links it builds.
 */
import { describe, expect, it } from '@jest/globals';
import { eventSummary } from '../../../web/src/job/event-summary.js';
import { artifactsWithAnnounced, isCancellableStatus, isFinishedStatus, progressOf, statusAfterEvents } from '../../../web/src/job/job-progress.js';
import { jobStatuses } from '../../../web/src/job/job-view.js';
import { downloadHref, isTrace, traceViewerHref } from '../../../web/src/job/links.js';
import { lastIndexOf, mergeEvents, type JobEvent } from '../../../web/src/job/merge-events.js';

const STATUSES = ['queued', 'running', 'passed', 'failed', 'errored', 'cancelled', 'review_required'];
const at = (second: number) => new Date(Date.UTC(2026, 11, 6, 22, 0, second)).toISOString();
const ev = (index: number, type = 'step.started', data: Record<string, unknown> = {}): JobEvent => ({ index, type, at: at(index), data });
const indexes = (events: readonly JobEvent[]) => events.map((event) => event.index);

describe('mergeEvents', () => {
  it('appends lines that follow what is known', () => {
    const known = [ev(0), ev(1)];
    expect(indexes(mergeEvents(known, [ev(2), ev(3)]))).toEqual([0, 1, 2, 3]);
  });

  it('drops lines it has already (a resumed stream, a refetched view) and keeps the first copy', () => {
    const known = [ev(0), ev(1, 'step.started', { first: true }), ev(2)];
    const merged = mergeEvents(known, [ev(1, 'step.started', { first: false }), ev(2), ev(3)]);
    expect(indexes(merged)).toEqual([0, 1, 2, 3]);
    expect(merged[1]!.data).toEqual({ first: true });
  });

  it('orders lines that come out of order and fills a gap', () => {
    expect(indexes(mergeEvents([ev(0), ev(3)], [ev(5), ev(1), ev(2), ev(4), ev(1)]))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('returns the known list itself when nothing is new, so nothing renders again', () => {
    const known = [ev(0), ev(1)];
    expect(mergeEvents(known, [])).toBe(known);
    expect(mergeEvents(known, [ev(1), ev(0)])).toBe(known);
  });

  it('holds 2,000 streamed one at a time, each once', () => {
    let events: readonly JobEvent[] = [];
    for (let index = 0; index < 2000; index += 1) events = mergeEvents(events, [ev(index), ev(Math.max(0, index - 1))]);
    expect(events).toHaveLength(2000);
    expect(lastIndexOf(events)).toBe(1999);
    expect(lastIndexOf([])).toBeUndefined();
  });
});

describe('progressOf', () => {
  const run: JobEvent[] = [
    ev(0, 'job.created', { trigger: 'web' }),
    ev(1, 'job.queued'),
    ev(2, 'job.started', { attempt: 1 }),
    ev(3, 'step.started', { index: 0, action: 'goto', description: 'Open the shop', attempt: 1 }),
    ev(4, 'artifact.created', { artifactId: 'a1', kind: 'screenshot', name: 'step-1.png', sizeBytes: 10 }),
    ev(5, 'step.passed', { index: 0, ms: 420 }),
    ev(6, 'step.started', { index: 1, action: 'expect', description: 'See the cart total', attempt: 1 }),
    ev(7, 'artifact.created', { artifactId: 'a2', kind: 'screenshot', name: 'step-2.png', sizeBytes: 20 }),
    ev(8, 'finding.recorded', { findingId: 'f1', kind: 'assertion_failed', severity: 'error', title: 'Step 2 failed' }),
    ev(9, 'step.failed', { index: 1, ms: 1500, kind: 'assertion_failed', message: 'Not shown', expected: '€10.00', actual: ['€12.00', '€1.00'] }),
    ev(10, 'artifact.created', { artifactId: 'trace', kind: 'trace', name: 'trace.zip', sizeBytes: 999 }),
    ev(11, 'job.failed'),
  ];

  it('reads the steps with their timings, outcome, expected and actual', () => {
    const { steps } = progressOf(run);
    expect(steps).toEqual([
      expect.objectContaining({ index: 0, description: 'Open the shop', action: 'goto', state: 'passed', startedAt: at(3), finishedAt: at(5), ms: 420 }),
      expect.objectContaining({ index: 1, state: 'failed', ms: 1500, failureKind: 'assertion_failed', message: 'Not shown', expected: '€10.00', actual: ['€12.00', '€1.00'] }),
    ]);
  });

  it('gives each announced artifact the step that was running when it was stored', () => {
    expect(progressOf(run).artifacts.map((artifact) => [artifact.id, artifact.stepIndex])).toEqual([
      ['a1', 0],
      ['a2', 1],
      ['trace', null],
    ]);
  });

  it('shows a running step as running, and a step started again by a resumed attempt once', () => {
    const resumed = [...run.slice(0, 4), ev(20, 'job.resumed', { attempt: 2 }), ev(21, 'step.started', { index: 0, description: 'Open the shop', attempt: 2 })];
    const { steps } = progressOf(resumed);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ state: 'running', attempt: 2, startedAt: at(21) });
  });

  it('reads data of the wrong type as absent, never as text to show', () => {
    const { steps, visits } = progressOf([
      ev(0, 'step.started', { index: 0, description: { html: '<b>' }, action: 7 }),
      ev(1, 'step.passed', { index: 0, ms: 'fast' }),
      ev(2, 'step.started', { index: 'one' }),
      ev(3, 'page.visited', { url: 'https://shop.example/', title: 'Shop', status: 200, ms: 80 }),
    ]);
    expect(steps).toEqual([expect.objectContaining({ index: 0, description: 'Step 1', action: '', state: 'passed', ms: undefined })]);
    expect(visits).toEqual([{ at: at(3), url: 'https://shop.example/', title: 'Shop', httpStatus: 200, ms: 80 }]);
  });

  it('lists the jobs that answered its questions', () => {
    expect(progressOf([ev(0, 'job.review_required'), ev(1, 'job.answered', { childJobId: 'c1' }), ev(2, 'job.answered', { childJobId: 'c1' })]).childJobIds).toEqual(['c1']);
  });
});

describe('statusAfterEvents', () => {
  it('follows job.<status> events and counts a queued job as running once its run writes anything', () => {
    expect(statusAfterEvents('queued', [ev(3, 'job.created')], STATUSES)).toBe('queued');
    expect(statusAfterEvents('queued', [ev(3, 'job.started')], STATUSES)).toBe('running');
    expect(statusAfterEvents('queued', [ev(3, 'job.started'), ev(4, 'step.started'), ev(5, 'job.passed')], STATUSES)).toBe('passed');
    expect(statusAfterEvents('running', [ev(5, 'job.cancelled')], STATUSES)).toBe('cancelled');
    expect(statusAfterEvents('running', [ev(5, 'job.something_new')], STATUSES)).toBe('running');
  });

  it("reads the API's statuses from the job record schema, so job.<status> events are known", () => {
    expect([...jobStatuses].sort()).toEqual([...STATUSES].sort());
  });

  it('says which statuses are finished and which may be cancelled', () => {
    expect(STATUSES.filter(isFinishedStatus)).toEqual(['passed', 'failed', 'errored', 'cancelled', 'review_required']);
    expect(STATUSES.filter(isCancellableStatus)).toEqual(['queued', 'running', 'review_required']);
  });
});

describe('artifactsWithAnnounced', () => {
  it("adds an announced artifact the view does not list yet, at the API's download route", () => {
    const listed = [{ id: 'a1', kind: 'screenshot', name: 'step-1.png', contentType: 'image/png', sizeBytes: 10, sha256: 'x', stepIndex: 0, createdAt: at(1), downloadPath: '/api/jobs/j1/artifacts/a1' }];
    const merged = artifactsWithAnnounced('j1', listed, [
      { id: 'a1', kind: 'screenshot', name: 'step-1.png', sizeBytes: 10, stepIndex: 0, createdAt: at(1) },
      { id: 'a2', kind: 'screenshot', name: 'step-2.png', sizeBytes: 20, stepIndex: 1, createdAt: at(2) },
    ]);
    expect(merged.map((artifact) => [artifact.id, artifact.downloadPath, artifact.stepIndex])).toEqual([
      ['a1', '/api/jobs/j1/artifacts/a1', 0],
      ['a2', '/api/jobs/j1/artifacts/a2', 1],
    ]);
  });
});

describe('links', () => {
  it("links only the service's own /api/ paths", () => {
    expect(downloadHref('/api/jobs/j1/artifacts/a1')).toBe('/api/jobs/j1/artifacts/a1');
    for (const hostile of ['javascript:alert(1)', '//evil.example/api/x', 'https://evil.example/api/x', '/api//evil.example', '/\\evil.example', ' /api/x', '/api/x y', 'data:text/html,<script>alert(1)</script>']) {
      expect(downloadHref(hostile)).toBeUndefined();
      expect(traceViewerHref(hostile, 'http://127.0.0.1:3000')).toBeUndefined();
    }
  });

  it("opens a trace in the service's trace viewer with the trace's absolute URL", () => {
    expect(traceViewerHref('/api/jobs/j1/artifacts/t1', 'http://127.0.0.1:3000')).toBe(`/trace/index.html?trace=${encodeURIComponent('http://127.0.0.1:3000/api/jobs/j1/artifacts/t1')}`);
    expect(isTrace({ kind: 'trace', name: 'trace.zip', contentType: 'application/zip' })).toBe(true);
    expect(isTrace({ kind: 'screenshot', name: 'step-1.png', contentType: 'image/png' })).toBe(false);
  });
});

describe('eventSummary', () => {
  it('says each known event in words and keeps hostile text as it is (React shows it as text)', () => {
    expect(eventSummary(ev(3, 'step.started', { index: 0, description: '<img src=x onerror=alert(1)>' }))).toBe('Step 1 started: <img src=x onerror=alert(1)>');
    expect(eventSummary(ev(4, 'step.failed', { index: 1, ms: 12, message: 'Not shown' }))).toBe('Step 2 failed in 12 ms: Not shown');
    expect(eventSummary(ev(5, 'page.visited', { url: 'javascript:alert(1)', title: 'T', status: 200 }))).toBe('Visited T — javascript:alert(1) (HTTP 200)');
    expect(eventSummary(ev(6, 'something.new', { a: 1 }))).toBe('{"a":1}');
    expect(eventSummary(ev(8, 'job.failed', { findings: 2, errors: 1 }))).toBe('Failed: 2 findings, 1 error');
    expect(eventSummary(ev(9, 'planner.called', { model: 'm', totalTokens: 840, durationMs: 120, outcome: 'ok' }))).toBe('Planner called (m, 840 tokens, 120 ms, ok)');
    expect(eventSummary(ev(7, 'something.new', { long: 'x'.repeat(1000) }))).toHaveLength(400);
  });
});
