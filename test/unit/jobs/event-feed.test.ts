import { describe, expect, it } from '@jest/globals';
import { createEventFeed, FEED_TICK_MS, type FeedEnd, type FeedTimers, type ReadProgress } from '../../../src/jobs/event-feed.js';
import type { JobProgress } from '../../../src/jobs/job-progress.js';
import type { JobEvent } from '../../../src/store/entities/job-event.entity.js';
import { silentLogger } from '../../support/logger.js';

/** Timers the test runs by hand: `tick()` fires every timer set so far, then lets the reads they started settle. */
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
    /** Delays of the timers now pending. */
    delays: () => [...due.values()].map((timer) => timer.ms),
    async tick(): Promise<void> {
      const fired = [...due.values()];
      due.clear();
      for (const timer of fired) timer.callback();
      await settle();
    },
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Jobs in memory: their events and status, and every read the feed made. */
function memoryStore() {
  const jobs = new Map<string, { events: JobEvent[]; finished: boolean }>();
  const reads: { jobId: string; after: number }[] = [];
  const job = (jobId: string) => {
    let entry = jobs.get(jobId);
    if (!entry) jobs.set(jobId, (entry = { events: [], finished: false }));
    return entry;
  };
  const read: ReadProgress = async (jobId, after) => {
    reads.push({ jobId, after });
    const { events, finished } = job(jobId);
    return { events: events.filter((event) => event.seq > after), finished };
  };
  return {
    read,
    reads,
    append(jobId: string, count = 1): void {
      const { events } = job(jobId);
      for (let i = 0; i < count; i++) {
        events.push({ jobId, seq: events.length, type: 'page.visited', at: new Date(0), data: { n: events.length } });
      }
    },
    finish: (jobId: string) => void (job(jobId).finished = true),
  };
}

/** A follower that records what it got. */
function recorder() {
  const seen: number[] = [];
  const ends: FeedEnd[] = [];
  return {
    seen,
    ends,
    follower: { events: (events: JobEvent[]) => void seen.push(...events.map((event) => event.seq)), end: (reason: FeedEnd) => void ends.push(reason) },
  };
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

describe('event feed', () => {
  it('hands each of many followers every event after its index, in order, exactly once, and ends them all when the job finishes', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    const feed = createEventFeed({ read: store.read, logger: silentLogger(), timers: clock.timers });
    store.append('job', 3);
    const followers = range(0, 300).map((i) => ({ after: (i % 4) - 1, ...recorder() }));
    for (const f of followers.slice(0, 150)) feed.follow('job', f.after, f.follower);
    for (let round = 0; round < 5; round++) {
      store.append('job', round + 1);
      await clock.tick();
    }
    // Late joiners, some behind what the others have already been given.
    for (const f of followers.slice(150)) feed.follow('job', f.after, f.follower);
    store.append('job', 4);
    await clock.tick();
    store.append('job', 2);
    store.finish('job');
    await clock.tick();
    await clock.tick();

    for (const f of followers) {
      expect(f.seen).toEqual(range(f.after + 1, 3 + 15 + 6));
      expect(f.ends).toEqual(['finished']);
    }
    expect(feed.size()).toEqual({ jobs: 0, followers: 0 });
    expect(clock.delays()).toEqual([]);
  });

  it('reads once per tick, whether one follower or five hundred follow the job', async () => {
    const readsPerTick = async (followers: number): Promise<number[]> => {
      const store = memoryStore();
      const clock = manualTimers();
      const feed = createEventFeed({ read: store.read, logger: silentLogger(), timers: clock.timers });
      for (let i = 0; i < followers; i++) feed.follow('job', -1, recorder().follower);
      const counts: number[] = [];
      for (let tick = 0; tick < 5; tick++) {
        store.append('job', 2);
        const before = store.reads.length;
        await clock.tick();
        counts.push(store.reads.length - before);
      }
      feed.close();
      return counts;
    };
    expect(await readsPerTick(1)).toEqual([1, 1, 1, 1, 1]);
    expect(await readsPerTick(500)).toEqual([1, 1, 1, 1, 1]);
  });

  it('serves a follower that joins behind a read in flight from a second read at once, with no gap and no repeat', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    let release: (() => void) | undefined;
    const gated: ReadProgress = async (jobId, after) => {
      const result = await store.read(jobId, after);
      await new Promise<void>((resolve) => (release = resolve));
      return result;
    };
    const feed = createEventFeed({ read: gated, logger: silentLogger(), timers: clock.timers });
    store.append('job', 5);
    const early = recorder();
    feed.follow('job', 4, early.follower);
    store.append('job', 2); // 5, 6
    await clock.tick(); // the read after index 4 is now in flight
    const behind = recorder();
    const level = recorder();
    feed.follow('job', 1, behind.follower);
    feed.follow('job', 4, level.follower);
    release!();
    await settle();
    expect(early.seen).toEqual([5, 6]);
    expect(level.seen).toEqual([5, 6]);
    expect(behind.seen).toEqual([]);
    expect(clock.delays()).toEqual([0]);

    await clock.tick();
    release!();
    await settle();
    expect(store.reads.map((read) => read.after)).toEqual([4, 1]);
    expect(behind.seen).toEqual([2, 3, 4, 5, 6]);
    expect(early.seen).toEqual([5, 6]);
    expect(clock.delays()).toEqual([FEED_TICK_MS]);
    feed.close();
  });

  it('drops a follower that leaves, and stops polling when the last one has left', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    const feed = createEventFeed({ read: store.read, logger: silentLogger(), timers: clock.timers });
    const staying = recorder();
    const leaving = recorder();
    const leave = feed.follow('job', -1, leaving.follower);
    const stay = feed.follow('job', -1, staying.follower);
    store.append('job');
    await clock.tick();
    leave();
    expect(feed.size()).toEqual({ jobs: 1, followers: 1 });
    store.append('job');
    await clock.tick();
    expect(leaving.seen).toEqual([0]);
    expect(staying.seen).toEqual([0, 1]);
    expect(leaving.ends).toEqual([]);

    stay();
    const reads = store.reads.length;
    expect(feed.size()).toEqual({ jobs: 0, followers: 0 });
    expect(clock.delays()).toEqual([]);
    await clock.tick();
    expect(store.reads.length).toBe(reads);
  });

  it('ignores a read that returns after its last follower left, and starts afresh for the next one', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    const releases: (() => void)[] = [];
    const gated: ReadProgress = async (jobId, after) => {
      const result = await store.read(jobId, after);
      await new Promise<void>((resolve) => releases.push(resolve));
      return result;
    };
    const feed = createEventFeed({ read: gated, logger: silentLogger(), timers: clock.timers });
    store.append('job', 2);
    const gone = recorder();
    const leave = feed.follow('job', -1, gone.follower);
    await clock.tick();
    leave();
    const next = recorder();
    feed.follow('job', 0, next.follower);
    releases.shift()!();
    await settle();
    expect(gone.seen).toEqual([]);
    expect(next.seen).toEqual([]);
    await clock.tick();
    releases.shift()!();
    await settle();
    expect(next.seen).toEqual([1]);
    feed.close();
  });

  it('ends only that job’s streams when its read fails, and keeps serving other jobs', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    const failing: ReadProgress = async (jobId, after): Promise<JobProgress> => {
      if (jobId === 'broken') throw new Error('Connection lost: The server closed the connection.');
      return store.read(jobId, after);
    };
    const feed = createEventFeed({ read: failing, logger: silentLogger(), timers: clock.timers });
    const broken = [recorder(), recorder()];
    const fine = recorder();
    for (const f of broken) feed.follow('broken', -1, f.follower);
    feed.follow('fine', -1, fine.follower);
    store.append('fine');
    await clock.tick();
    expect(broken.map((f) => f.ends)).toEqual([['failed'], ['failed']]);
    expect(feed.size()).toEqual({ jobs: 1, followers: 1 });
    store.append('fine');
    await clock.tick();
    expect(fine.seen).toEqual([0, 1]);
    expect(fine.ends).toEqual([]);
    feed.close();
  });

  it('keeps delivering to the others when one follower throws, and drops that one', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    const feed = createEventFeed({ read: store.read, logger: silentLogger(), timers: clock.timers });
    const healthy = recorder();
    feed.follow('job', -1, { events: () => { throw new Error('write after end'); }, end: () => {} });
    feed.follow('job', -1, healthy.follower);
    store.append('job', 2);
    await clock.tick();
    expect(healthy.seen).toEqual([0, 1]);
    expect(feed.size()).toEqual({ jobs: 1, followers: 1 });
    feed.close();
  });

  it('reads at once when woken by a writer in this process, also when woken during a read', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    let release: (() => void) | undefined;
    let gate = false;
    const read: ReadProgress = async (jobId, after) => {
      const result = await store.read(jobId, after);
      if (gate) await new Promise<void>((resolve) => (release = resolve));
      return result;
    };
    const feed = createEventFeed({ read, logger: silentLogger(), timers: clock.timers });
    const f = recorder();
    feed.follow('job', -1, f.follower);
    expect(clock.delays()).toEqual([FEED_TICK_MS]);
    store.append('job');
    feed.wake('job');
    feed.wake('other job'); // nobody follows it: nothing to do
    expect(clock.delays()).toEqual([0]);
    await clock.tick();
    expect(f.seen).toEqual([0]);
    expect(clock.delays()).toEqual([FEED_TICK_MS]);

    gate = true;
    await clock.tick();
    store.append('job');
    feed.wake('job');
    release!();
    await settle();
    expect(clock.delays()).toEqual([0]);
    gate = false;
    await clock.tick();
    expect(f.seen).toEqual([0, 1]);
    feed.close();
  });

  it('ends every stream with "closed" on close, and turns later followers away', async () => {
    const store = memoryStore();
    const clock = manualTimers();
    const feed = createEventFeed({ read: store.read, logger: silentLogger(), timers: clock.timers });
    const a = recorder();
    const b = recorder();
    feed.follow('one', -1, a.follower);
    feed.follow('two', -1, b.follower);
    feed.close();
    expect([a.ends, b.ends]).toEqual([['closed'], ['closed']]);
    expect(clock.delays()).toEqual([]);
    const late = recorder();
    feed.follow('one', -1, late.follower);
    expect(late.ends).toEqual(['closed']);
    expect(feed.size()).toEqual({ jobs: 0, followers: 0 });
  });
});
