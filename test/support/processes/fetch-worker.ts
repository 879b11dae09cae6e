/**
 * A worker that fetches one revision and never finishes it (the URL stalls): the parent SIGKILLs it mid-fetch to see
 * what a crashed worker leaves behind. Env: FETCH_TMP, FETCH_URL, FETCH_CA, FETCH_TIMEOUT_MS.
 */
import { pino } from 'pino';
import { createRevisionFetcher } from '../../../src/onboarding/fetch/revision-fetcher.js';

const revisions = createRevisionFetcher({
  logger: pino({ level: 'silent' }),
  tmpDir: process.env.FETCH_TMP,
  extraCaFile: process.env.FETCH_CA,
  environment: { PATH: process.env.PATH },
  limits: { timeoutMs: Number(process.env.FETCH_TIMEOUT_MS) },
});
process.stdout.write(`${JSON.stringify({ event: 'fetching', pid: process.pid })}\n`);
revisions.fetch({ cloneUrl: process.env.FETCH_URL ?? '', revision: null, defaultBranch: 'main', installationId: null }).then(
  () => process.stdout.write(`${JSON.stringify({ event: 'fetched' })}\n`),
  (error: unknown) => process.stdout.write(`${JSON.stringify({ event: 'failed', message: String(error) })}\n`),
);
