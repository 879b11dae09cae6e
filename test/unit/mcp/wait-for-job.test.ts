import { describe, expect, it } from '@jest/globals';
import { ErrorCode, notFoundError, operationalError } from '../../../src/core/errors.js';
import type { JobEvent, JobView, QaPort } from '../../../src/mcp/port.js';
import { waitForJob } from '../../../src/mcp/wait-for-job.js';

const AT = '2026-12-07T04:00:00.000Z';
const event = (index: number, type: string): JobEvent => ({ index, type, at: AT, data: {} });

/** A port whose event stream is `stream` and whose job reads as `status`; only what waitForJob calls. */
function portOf(stream: (after: number, signal: AbortSignal) => AsyncIterable<JobEvent>, status: JobView['job']['status']): QaPort & { afters: number[] } {
  const afters: number[] = [];
  const view: JobView = {
    job: {
      jobId: 'j1', status, projectId: 'p1', testId: 't1', parentJobId: null, childJobIds: [], naturalLanguageTask: 'Check the home page',
      baseUrl: 'https://shop.example', trigger: 'cli', createdAt: AT, startedAt: null, finishedAt: null,
    },
    events: [], artifacts: [], findings: [],
  };
  const unused = () => Promise.reject(new Error('not called'));
  return {
    afters,
    publicBase: 'https://qa.example',
    events: (_jobId, after, signal) => {
      afters.push(after);
      return stream(after, signal);
    },
    getJob: () => Promise.resolve(view),
    createJob: unused, answer: unused, cancelJob: unused, listChecks: unused, checkSource: unused,
  };
}

describe('waitForJob', () => {
  it('answers the verdict once the stream ends with the job finished, after relaying each event', async () => {
    const port = portOf(async function* () {
      yield event(4, 'step.passed');
      yield event(5, 'job.passed');
    }, 'passed');
    const seen: number[] = [];
    const outcome = await waitForJob(port, { jobId: 'j1', after: 3, waitSeconds: 30 }, async (e) => void seen.push(e.index), new AbortController().signal);
    expect(port.afters).toEqual([3]);
    expect(seen).toEqual([4, 5]);
    expect(outcome).toMatchObject({ jobId: 'j1', status: 'passed', finished: true, after: 5, links: { job: 'https://qa.example/jobs/j1' } });
  });

  it('answers where to resume when the stream is cut while the job runs', async () => {
    const port = portOf(async function* () {
      yield event(0, 'job.created');
      throw operationalError(ErrorCode.ApiStreamInterrupted, 'The event stream was cut off');
    }, 'running');
    const outcome = await waitForJob(port, { jobId: 'j1', waitSeconds: 30 }, () => Promise.resolve(), new AbortController().signal);
    expect(port.afters).toEqual([-1]);
    expect(outcome).toEqual({ jobId: 'j1', status: 'running', finished: false, after: 0, steps: [], links: expect.objectContaining({ job: 'https://qa.example/jobs/j1' }) });
  });

  it('passes on what the caller must fix: an unknown or another organization\'s job', async () => {
    const missing = notFoundError('job');
    const port = portOf(async function* () {
      yield* [];
      throw missing;
    }, 'running');
    await expect(waitForJob(port, { jobId: 'j1', waitSeconds: 30 }, () => Promise.resolve(), new AbortController().signal)).rejects.toBe(missing);
  });

  it('stops following when the client cancels the request', async () => {
    const cancel = new AbortController();
    const port = portOf(async function* (_after, signal) {
      yield event(0, 'job.created');
      // A stream that would go on for as long as the job runs: it ends only when the wait's signal aborts.
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }, 'queued');
    const outcome = await waitForJob(port, { jobId: 'j1', waitSeconds: 50 }, () => Promise.resolve(cancel.abort()), cancel.signal);
    expect(cancel.signal.aborted).toBe(true);
    expect(outcome).toMatchObject({ status: 'queued', finished: false, after: 0 });
    // Well before the 50 s wait would end it: the client's cancel stops the stream itself.
  }, 10_000);
});
