import { generateKeyPairSync } from 'node:crypto';
import type { Config } from '../../../src/config.js';
import type { CodehostChannelContext } from '../../../src/core/channel-context.js';
import type { CreateJobInput } from '../../../src/jobs/job-service.js';
import { commentMarker } from '../../../src/notify/codehost/pull-request-markdown.js';
import type { FakeCheckRun, FakeCodehost, FakeComment } from '../../fakes/codehost-api.js';
import { NO_CODEHOST } from '../../support/service-config.js';

export const APP_ID = 4711;
export const INSTALLATION = 42;
export const BOT_NAME = 'qa-bot';
export const HEAD_SHA = '3f1b9c2d4e5f60718293a4b5c6d7e8f901234567';
// Test keys are made here, never committed.
export const APP_KEYS = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

/** A pull request's channelContext as the code-host handlers write it: acme/shop#7 at HEAD_SHA. */
export function pullRequestContext(fields: Partial<CodehostChannelContext> = {}): CodehostChannelContext {
  return { channel: 'codehost', provider: 'codehost', installationId: INSTALLATION, owner: 'acme', repo: 'shop', pullNumber: 7, headSha: HEAD_SHA, ...fields };
}

/** CODEHOST_* pointing at the fake. */
export function codehostSettings(fake: FakeCodehost): Config['codehost'] {
  return { ...NO_CODEHOST, appId: APP_ID, privateKey: APP_KEYS.privateKey, apiUrl: fake.url, botName: BOT_NAME };
}

export function pullRequestJobInput(repositoryId: string, context: CodehostChannelContext, fields: Partial<CreateJobInput> = {}): CreateJobInput {
  return { repositoryId, naturalLanguageTask: 'Check that the pricing page lists three plans', baseUrl: 'https://shop.example', networkAllowlist: [], trigger: 'codehost', channelContext: context, ...fields } as CreateJobInput;
}

/** The job's comments (by its marker) and check runs (by external_id) on the fake. */
export function postedFor(fake: FakeCodehost, jobId: string): { comments: FakeComment[]; checkRuns: FakeCheckRun[] } {
  return {
    comments: fake.comments.filter((comment) => comment.user.login === `${BOT_NAME}[bot]` && comment.body.startsWith(commentMarker(jobId))),
    checkRuns: fake.checkRuns.filter((run) => run.app_id === APP_ID && run.external_id === jobId),
  };
}

export const summaryOf = (run: FakeCheckRun | undefined) => (run?.output as { summary?: string } | undefined)?.summary ?? '';

/** The requests the fake answered for one route, as `METHOD path-pattern`. */
export function requestsTo(fake: FakeCodehost, method: string, path: RegExp) {
  return fake.requests.filter((request) => request.method === method && path.test(request.path.split('?')[0]!));
}

export const COMMENT_POSTS = /^\/repos\/acme\/shop\/issues\/\d+\/comments$/;
export const CHECK_RUN_POSTS = /^\/repos\/acme\/shop\/check-runs$/;
export const CHECK_RUN_LISTS = /^\/repos\/acme\/shop\/commits\/[0-9a-f]{40}\/check-runs$/;

/** Polls `probe` until it gives a value (a worker runs on its own time). */
export async function until<T>(probe: () => Promise<T | undefined | false | null> | T | undefined | false | null, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false && value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
