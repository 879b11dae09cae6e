import { describe, expect, it } from '@jest/globals';
import type { ApiClient } from '../../src/cli/api-client.js';
import { followJob } from '../../src/cli/follow-job.js';
import { createFollowRenderer, formatElapsed, statusAfter } from '../../src/cli/follow-renderer.js';
import type { JobEventLine } from '../../src/cli/job-shapes.js';
import { operationalError } from '../../src/core/errors.js';
import { SET_A } from '../../src/core/naming.js';

/** A stream that records what is written, as a terminal or a pipe would receive it. */
function fakeStream(isTTY: boolean, columns?: number) {
  const chunks: string[] = [];
  return { chunks, isTTY, columns, write: (chunk: string) => chunks.push(chunk), text: () => chunks.join('') };
}

/** What a terminal shows after `text`: "\r\x1b[2K" clears the current line, "\n" starts the next one. */
function screen(text: string): string[] {
  const rows = [''];
  // eslint-disable-next-line no-control-regex -- the terminal's clear-line sequence is what is being read
  for (const part of text.split(/(\r\x1b\[2K|\n)/)) {
    if (part === '\r\x1b[2K') rows[rows.length - 1] = '';
    else if (part === '\n') rows.push('');
    else rows[rows.length - 1] += part;
  }
  return rows;
}

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const event = (index: number, type: string, data: unknown = {}): JobEventLine => ({ index, type, at: new Date(T0 + index * 1000).toISOString(), data });
const localTime = (index: number) => new Date(T0 + index * 1000).toTimeString().slice(0, 8);

describe('the follow renderer on a terminal', () => {
  it('prints a human line per event under a live progress line that ticks, and clears it at the end', () => {
    const stream = fakeStream(true, 120);
    let clock = T0;
    let tick: (() => void) | undefined;
    let stopped = false;
    const renderer = createFollowRenderer(stream, {
      now: () => clock,
      every: (ms, run) => {
        expect(ms).toBe(1000);
        tick = run;
        return () => (stopped = true);
      },
    });

    renderer.start('queued', T0);
    expect(screen(stream.text())).toEqual(['… queued · 0 events · 0s']);
    renderer.event(event(0, 'job.created', { trigger: 'cli' }), 'queued');
    clock += 3_000;
    tick!();
    expect(screen(stream.text())).toEqual([`#0  ${localTime(0)}  job.created  {"trigger":"cli"}`, '… queued · 1 event · 3s']);
    renderer.event(event(1, 'page.visited', { url: 'https://shop.example/' }), 'running');
    clock += 62_000;
    tick!();
    expect(screen(stream.text()).at(-1)).toBe('… running · 2 events · 1m 05s');

    renderer.end();
    expect(stopped).toBe(true);
    expect(screen(stream.text())).toEqual([
      `#0  ${localTime(0)}  job.created  {"trigger":"cli"}`,
      `#1  ${localTime(1)}  page.visited  {"url":"https://shop.example/"}`,
      '',
    ]);
    expect(stream.chunks.at(-1)).toBe('\r\x1b[2K');
  });

  it('cuts a long event line to the terminal width, and escapes control characters from the server', () => {
    const stream = fakeStream(true, 40);
    const renderer = createFollowRenderer(stream, { now: () => T0, every: () => () => undefined });
    renderer.start('running', T0);
    renderer.event(event(7, 'step\x1b[31m.passed', { note: 'x'.repeat(100) }), 'running');
    renderer.end();
    const [line] = screen(stream.text());
    expect(line).toHaveLength(39);
    expect(line!.endsWith('…')).toBe(true);
    expect(line).toContain('step\\u001b[31m.passed');
  });
});

describe('the follow renderer on a pipe', () => {
  it('writes `<index> <at> <type> <compact data JSON>` lines and no control characters at all', () => {
    const stream = fakeStream(false);
    const renderer = createFollowRenderer(stream, { every: () => () => undefined });
    renderer.start('queued', T0);
    renderer.event(event(0, 'job.created', { trigger: 'cli', note: 'two\nlines \u009b' }), 'queued');
    renderer.event(event(1, 'job.passed', null), 'passed');
    renderer.end();
    expect(stream.text()).toBe(
      '0 2026-03-02T10:00:00.000Z job.created {"trigger":"cli","note":"two\\nlines \\u009b"}\n1 2026-03-02T10:00:01.000Z job.passed null\n',
    );
  });
});

describe('follow helpers', () => {
  it('reads the status from the events: job.<status> names it, any other event means a queued job is running', () => {
    expect(statusAfter('queued', 'job.queued')).toBe('queued');
    expect(statusAfter('queued', 'job.started')).toBe('running');
    expect(statusAfter('queued', 'page.visited')).toBe('running');
    expect(statusAfter('running', 'run.retrying')).toBe('running');
    expect(statusAfter('running', 'job.failed')).toBe('failed');
    expect(statusAfter('queued', 'job.answered')).toBe('queued');
    expect(statusAfter('review_required', 'job.answered')).toBe('review_required');
  });

  it('formats elapsed time for a person', () => {
    expect([0, 59_999, 60_000, 3_599_000, 3_600_000, 7_380_000].map(formatElapsed)).toEqual(['0s', '59s', '1m 00s', '59m 59s', '1h 00m', '2h 03m']);
  });
});

describe('followJob', () => {
  it('gives up after its retries with backoff, saying how to resume from the last event seen', async () => {
    const streams: string[] = [];
    const client: ApiClient = {
      apiUrl: 'http://127.0.0.1:1',
      call: () => Promise.resolve({ job: { status: 'running', createdAt: new Date(T0).toISOString() } }),
      text: () => Promise.reject(new Error('not called')),
      async *lines(path) {
        streams.push(path);
        if (streams.length === 1) yield JSON.stringify(event(4, 'page.visited'));
        throw operationalError('api.unreachable', 'Could not reach the QA API');
      },
    };
    const waits: number[] = [];
    const renderer = { start: () => {}, event: () => {}, end: () => {} };

    const following = followJob({ client, renderer, sleep: (ms) => Promise.resolve(void waits.push(ms)), retries: 3, backoffMs: 100 }, SET_A, 'j1', 3);

    await expect(following).rejects.toThrow('Lost the events of job j1 after 3 reconnections (Could not reach the QA API); resume with: qa follow j1 --after 4');
    expect(waits).toEqual([100, 200, 400]);
    expect(streams).toEqual(['/api/jobs/j1/events?after=3', ...Array(3).fill('/api/jobs/j1/events?after=4')]);
  });
});
