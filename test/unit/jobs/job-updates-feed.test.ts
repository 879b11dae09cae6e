import { describe, expect, it } from '@jest/globals';
import type { FeedTimers } from '../../../src/jobs/event-feed.js';
import { comparePositions, positionOf, type ChangePosition } from '../../../src/jobs/job-changes.js';
import { createJobUpdatesFeed, type ReadChanges } from '../../../src/jobs/job-updates-feed.js';
import type { JobSummaryRow } from '../../../src/jobs/list-jobs.js';
import { silentLogger } from '../../support/logger.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Timers run by hand: `tick()` fires every timer set so far, then lets the reads they started settle. */
function manualTimers() {
  let next = 0;
  const due = new Map<number, { callback: () => void; ms: number }>();
  const timers: FeedTimers = {
    set(callback, ms) {
      due.set(++next, { callback, ms });
      return next;
    },
    clear: (handle) => void due.delete(handle as number),
  };
  return {
    timers,
    delays: () => [...due.values()].map((timer) => timer.ms),
    async tick(): Promise<void> {
      const fired = [...due.values()];
      due.clear();
      for (const timer of fired) timer.callback();
      await settle();
      await settle();
    },
  };
}

const SETTLE_MS = 1_000;

/** Job rows in memory, written at the test's clock, and every read the feed made. */
function memoryJobs() {
  let now = 100_000;
  let n = 0;
  const rows: (JobSummaryRow & { organizationId: string })[] = [];
  const reads: { organizationId: string; after: ChangePosition; upTo: number }[] = [];
  let failing = false;
  const read: ReadChanges = async (organizationId, after, upTo, limit) => {
    reads.push({ organizationId, after, upTo: upTo.getTime() });
    if (failing) throw new Error('ECONNRESET');
    return rows
      .filter((row) => row.organizationId === organizationId && row.updatedAt.getTime() <= upTo.getTime() && comparePositions(positionOf(row), after) > 0)
      .sort((a, b) => comparePositions(positionOf(a), positionOf(b)))
      .slice(0, limit);
  };
  return {
    read,
    reads,
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    fail() {
      failing = true;
    },
    /** Writes (or rewrites) a job of `organizationId` now. */
    write(organizationId: string, id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, status = 'queued'): string {
      const existing = rows.findIndex((row) => row.id === id);
      const row = { id, organizationId, status, updatedAt: new Date(now) } as JobSummaryRow & { organizationId: string };
      if (existing >= 0) rows[existing] = row;
      else rows.push(row);
      return id;
    },
  };
}

function recorder() {
  const got: { ids: string[]; position: ChangePosition }[] = [];
  const ended: string[] = [];
  return {
    got,
    ended,
    ids: () => got.flatMap((batch) => batch.ids),
    follower: {
      advance: (rows: JobSummaryRow[], position: ChangePosition) => void got.push({ ids: rows.map((row) => `${row.id.slice(-2)}:${row.status}`), position }),
      end: (reason: string) => void ended.push(reason),
    },
  };
}

describe('job updates feed', () => {
  function feedOver(pageSize = 200) {
    const jobs = memoryJobs();
    const timers = manualTimers();
    const feed = createJobUpdatesFeed({ read: jobs.read, logger: silentLogger(), clock: jobs.clock, timers: timers.timers, tickMs: 1_000, settleMs: SETTLE_MS, pageSize });
    return { jobs, timers, feed };
  }

  it('reads once per tick for all followers of an organization, only writes older than the settle window, each once', async () => {
    const { jobs, timers, feed } = feedOver();
    const start = feed.now();
    const a = recorder();
    const b = recorder();
    feed.follow('acme', start, a.follower);
    feed.follow('acme', start, b.follower);
    jobs.write('acme');
    jobs.write('globex');
    await timers.tick();
    // Written less than the settle window ago: not read yet.
    expect(a.ids()).toEqual([]);
    jobs.advance(SETTLE_MS);
    await timers.tick();
    expect(a.ids()).toEqual(['01:queued']);
    expect(b.ids()).toEqual(['01:queued']);
    jobs.write('acme', '00000000-0000-4000-8000-000000000001', 'running');
    jobs.advance(SETTLE_MS);
    await timers.tick();
    expect(a.ids()).toEqual(['01:queued', '01:running']);
    expect(jobs.reads.every((read) => read.organizationId === 'acme')).toBe(true);
    // The first pass had nothing to read: no time had passed since the followers' start.
    expect(jobs.reads).toHaveLength(2);
    expect(timers.delays()).toEqual([1_000]);
    // Each pass moves the followers to the horizon, even with nothing new: a heartbeat's cursor resumes from there.
    expect(a.got.at(-1)!.position).toEqual({ at: jobs.clock().getTime() - SETTLE_MS, id: null });
  });

  it('serves a follower that resumed behind the others from the shared poller, without repeats', async () => {
    const { jobs, timers, feed } = feedOver();
    const first = jobs.write('acme');
    jobs.advance(10);
    jobs.write('acme');
    jobs.advance(SETTLE_MS);
    const live = recorder();
    feed.follow('acme', feed.now(), live.follower);
    await timers.tick();
    const behind = recorder();
    const firstPosition = positionOf({ id: first, updatedAt: new Date(jobs.clock().getTime() - SETTLE_MS - 10) });
    feed.follow('acme', firstPosition, behind.follower);
    await timers.tick();
    expect(behind.ids()).toEqual(['02:queued']);
    expect(live.ids()).toEqual([]);
  });

  it('reads again at once after a full page, and ends every stream with "failed" when a read fails', async () => {
    const { jobs, timers, feed } = feedOver(2);
    const from = feed.now();
    for (let i = 0; i < 5; i++) jobs.write('acme');
    jobs.advance(SETTLE_MS);
    const follower = recorder();
    feed.follow('acme', from, follower.follower);
    await timers.tick();
    expect(timers.delays()).toEqual([0]);
    await timers.tick();
    await timers.tick();
    expect(follower.ids()).toEqual(['01:queued', '02:queued', '03:queued', '04:queued', '05:queued']);
    expect(timers.delays()).toEqual([1_000]);
    jobs.fail();
    jobs.advance(10);
    await timers.tick();
    expect(follower.ended).toEqual(['failed']);
    expect(feed.size()).toEqual({ organizations: 0, followers: 0 });
  });

  it('stops polling when the last follower leaves, and ends streams with "closed" on shutdown', async () => {
    const { timers, feed } = feedOver();
    const leaving = feed.follow('acme', feed.now(), recorder().follower);
    leaving();
    expect(feed.size()).toEqual({ organizations: 0, followers: 0 });
    expect(timers.delays()).toEqual([]);
    const staying = recorder();
    feed.follow('acme', feed.now(), staying.follower);
    feed.close();
    expect(staying.ended).toEqual(['closed']);
    const late = recorder();
    feed.follow('acme', feed.now(), late.follower);
    expect(late.ended).toEqual(['closed']);
  });
});
