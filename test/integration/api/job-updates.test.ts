import { beforeEach, expect, it } from '@jest/globals';
import { callApi } from '../../support/api-server.js';
import { insertRepository, seedAcmeShop, type AcmeShop } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';
import { useTestApi } from '../../support/use-test-api.js';
import { jobUpdateLineSchema } from '../../../src/api/schemas/jobs.js';
import { SET_A, SET_B } from '../../../src/core/naming.js';

const RUNNABLE = 'Check that the pricing page lists three plans';
/**
 * The feed's tick and settle window, shorter than the service's 1 s each so that a write shows within a few tenths of
 * a second: the settle window still holds back writes younger than it, which is what these tests exercise, and the
 * API's writers here commit within milliseconds of stamping a row.
 */
const TIMINGS = { tickMs: 100, settleMs: 300 };
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- lines are read field by field
type Line = Record<string, any>;

/** Waits for a condition the service reaches asynchronously (bounded by Jest's test timeout, never asserted on time). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await pause(20);
}

forEachDialect('job updates stream', (dialect) => {
  const store = useTestStore(dialect);
  const api = useTestApi(store, { updatesTimings: TIMINGS });
  let shop: AcmeShop;

  beforeEach(async () => {
    shop = await seedAcmeShop(store());
  });

  /** An open stream: the lines read so far (each checked against its schema), and `close` to go away. */
  async function open(path: string, auth = shop.key) {
    const controller = new AbortController();
    const response = await fetch(`${api.base}${path}`, { headers: { authorization: `Bearer ${auth}` }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const schema = jobUpdateLineSchema(path.startsWith('/api/runs') ? SET_B : SET_A);
    const lines: Line[] = [];
    let ended = false;
    const reading = (async () => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let newline: number;
          while ((newline = buffer.indexOf('\n')) >= 0) {
            const line = JSON.parse(buffer.slice(0, newline)) as Line;
            expect(schema.safeParse(line).success).toBe(true);
            lines.push(line);
            buffer = buffer.slice(newline + 1);
          }
        }
      } catch (error) {
        if ((error as Error).name !== 'AbortError') throw error;
      }
      ended = true;
    })();
    return {
      lines,
      jobs: () => lines.filter((line) => line.type !== 'heartbeat'),
      get ended() { return ended; },
      async close() {
        controller.abort();
        await reading;
      },
    };
  }

  const create = async (auth = shop.key, repositoryId = shop.repositoryId) => {
    const created = await callApi(api.base, 'POST', '/api/jobs', { projectId: repositoryId, baseUrl: 'https://shop.example', trigger: 'web', naturalLanguageTask: RUNNABLE }, auth);
    expect(created.status).toBe(202);
    return created.body.jobId as string;
  };

  it('streams jobs as they are created and change state, never another organization\'s, in both naming sets', async () => {
    const theirRepository = await insertRepository(store(), shop.otherOrganizationId);
    const asA = await open('/api/jobs/updates');
    const asB = await open('/api/runs/updates');
    await until(() => asA.lines.length >= 1);
    expect(asA.lines[0]).toEqual({ type: 'heartbeat', cursor: expect.any(String) });

    const theirs = await create(shop.otherKey, theirRepository);
    const jobId = await create();
    await until(() => asA.jobs().length >= 1 && asB.jobs().length >= 1);
    expect(asA.jobs()[0]).toEqual({
      type: 'job',
      cursor: expect.any(String),
      job: expect.objectContaining({ jobId, status: 'queued', trigger: 'web', projectId: shop.repositoryId, naturalLanguageTask: RUNNABLE, startedBy: { kind: 'machine', actor: expect.stringMatching(/^api_key:/) } }),
    });
    expect(asB.jobs()[0]).toMatchObject({ type: 'run', run: { runId: jobId, status: 'queued', repositoryId: shop.repositoryId } });

    expect((await callApi(api.base, 'POST', `/api/jobs/${jobId}/cancel`, undefined, shop.key)).status).toBe(200);
    await until(() => asA.jobs().length >= 2);
    expect(asA.jobs()[1]).toMatchObject({ type: 'job', job: { jobId, status: 'cancelled', finishedAt: expect.any(String) } });
    expect(asA.jobs().flatMap((line) => line.job.jobId)).toEqual([jobId, jobId]);
    expect(JSON.stringify([...asA.lines, ...asB.lines])).not.toContain(theirs);
    // One poller for the organization, whatever the number of streams.
    expect(api.updates.size()).toEqual({ organizations: 1, followers: 2 });
    await asA.close();
    await asB.close();
  }, 30_000);

  it('resumes after a line\'s cursor with what came later only, and ends its poller when the client leaves', async () => {
    const first = await open('/api/jobs/updates');
    const one = await create();
    await until(() => first.jobs().length >= 1);
    const afterOne = first.jobs()[0]!.cursor as string;
    await first.close();
    await until(() => api.updates.size().followers === 0);
    expect(api.updates.size()).toEqual({ organizations: 0, followers: 0 });

    const two = await create();
    expect((await callApi(api.base, 'POST', `/api/jobs/${one}/cancel`, undefined, shop.key)).status).toBe(200);
    const resumed = await open(`/api/jobs/updates?after=${afterOne}`);
    await until(() => resumed.lines.length >= 1);
    expect(resumed.lines[0]).toEqual({ type: 'heartbeat', cursor: afterOne });
    await until(() => resumed.jobs().length >= 2);
    // Written after the cursor: job two, then job one's cancellation; job one's creation is not repeated.
    expect(resumed.jobs().map((line) => [line.job.jobId, line.job.status])).toEqual([
      [two, 'queued'],
      [one, 'cancelled'],
    ]);
    const last = resumed.jobs()[1]!.cursor as string;
    await resumed.close();

    const again = await open(`/api/jobs/updates?after=${last}`);
    const three = await create();
    await until(() => again.jobs().length >= 1);
    // Nothing more comes in three ticks past the settle window.
    await pause(3 * (TIMINGS.tickMs + TIMINGS.settleMs));
    expect(again.jobs().map((line) => line.job.jobId)).toEqual([three]);
    await again.close();
    expect(again.ended).toBe(true);
  }, 30_000);

  it('refuses a malformed cursor, a list cursor and unknown parameters with a 400, and needs a key', async () => {
    const listCursor = Buffer.from(`l1:${Date.now()}:${shop.checkId}`).toString('base64url');
    for (const query of ['after=nope', `after=${listCursor}`, 'after=', 'since=1']) {
      const answer = await callApi(api.base, 'GET', `/api/jobs/updates?${query}`, undefined, shop.key);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.body.error.code).toBe(query.startsWith('after') ? 'request.invalid_cursor' : 'request.invalid');
    }
    expect((await callApi(api.base, 'GET', '/api/runs/updates', undefined, null)).status).toBe(401);
  });
});
