import { expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { decodeChangeCursor } from '../../../src/api/cursors.js';
import { streamJobUpdates } from '../../../src/api/job-updates-stream.js';
import { apiKeyPrincipal } from '../../../src/core/principal.js';
import { SET_B } from '../../../src/core/naming.js';
import type { ChangePosition } from '../../../src/jobs/job-changes.js';
import type { JobUpdatesFeed, UpdatesFollower } from '../../../src/jobs/job-updates-feed.js';
import type { JobSummaryRow } from '../../../src/jobs/list-jobs.js';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A feed the test drives: it hands the stream's follower to the test and counts unsubscriptions. */
function drivenFeed() {
  const followers: UpdatesFollower[] = [];
  let unsubscribed = 0;
  const feed: JobUpdatesFeed = {
    now: () => ({ at: 1_000, id: null }),
    follow(_organizationId, _after, follower) {
      followers.push(follower);
      return () => void unsubscribed++;
    },
    size: () => ({ organizations: 0, followers: followers.length - unsubscribed }),
    close: () => undefined,
  };
  return { feed, followers, unsubscribed: () => unsubscribed };
}

it('sends a heartbeat first and then every interval with the latest position, job lines in between, and unsubscribes when the client leaves', async () => {
  const driven = drivenFeed();
  const app = express();
  app.get('/updates', (_req, res) => streamJobUpdates(res, { updates: driven.feed, names: SET_B, principal: apiKeyPrincipal('org-1', 'key-1'), heartbeatMs: 40 }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  try {
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/updates`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    const readUntil = async (count: number) => {
      while (lines.length < count) {
        const { value } = await reader.read();
        buffer += value ?? '';
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
          buffer = buffer.slice(newline + 1);
        }
      }
    };
    await readUntil(1);
    expect(lines[0]).toEqual({ type: 'heartbeat', cursor: expect.any(String) });
    expect(decodeChangeCursor(lines[0]!.cursor as string)).toEqual({ at: 1_000, id: null });

    const row = {
      id: '00000000-0000-4000-8000-000000000001', status: 'running', trigger: 'web', repositoryId: '00000000-0000-4000-8000-0000000000aa', checkId: null,
      parentJobId: null, task: 'Check the pricing page', startedBy: null, createdAt: new Date(1_500), startedAt: new Date(1_800), finishedAt: null, updatedAt: new Date(1_800),
    } as JobSummaryRow;
    const watermark: ChangePosition = { at: 2_000, id: null };
    driven.followers[0]!.advance([row], watermark);
    await readUntil(2);
    expect(lines[1]).toMatchObject({ type: 'run', run: { runId: row.id, status: 'running', repositoryId: row.repositoryId, parentRunId: null } });
    expect(decodeChangeCursor(lines[1]!.cursor as string)).toEqual({ at: 1_800, id: row.id });
    // Later heartbeats carry the position the feed moved the stream to.
    await readUntil(3);
    expect(lines[2]!.type).toBe('heartbeat');
    expect(decodeChangeCursor(lines[2]!.cursor as string)).toEqual(watermark);

    controller.abort();
    for (let i = 0; i < 100 && driven.unsubscribed() === 0; i++) await pause(10);
    expect(driven.unsubscribed()).toBe(1);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
