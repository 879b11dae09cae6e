import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { checkDetailSchema, checkListSchema } from '../../api/schemas/checks.js';
import { ErrorCode, userError } from '../../core/errors.js';
import { SET_A } from '../../core/naming.js';
import { apiClientOf, collect } from '../client-verbs.js';
import type { CliContext } from '../context.js';
import { renderJUnit } from '../replay/junit.js';
import { changedFilesFrom, changedSince, duration, parallelism } from '../replay/replay-options.js';
import { failureMessage, type ReplayResult } from '../replay/replay-result.js';
import { selectForChange } from '../replay/replay-selection.js';
import { runReplays, type ReplayTarget } from '../replay/run-replays.js';
import { renderSummary } from '../replay/summary.js';
import { printable, type Terminal } from '../terminal.js';
import type { ApiClient } from '../api-client.js';

interface ReplayOptions {
  repository: string;
  baseUrl: string;
  check?: string[];
  changedFiles?: string;
  since?: string;
  parallel: number;
  junit?: string;
  summary?: string;
  timeout: number;
  allow?: string[];
}

/** The most checks one list call returns; a repository with more is replayed by `--check`. */
const CHECK_PAGE = 200;

const MARKS: Record<ReplayResult['status'], string> = {
  passed: '✓ passed', failed: '✗ failed', errored: '! errored', cancelled: '- cancelled', review_required: '? needs answers', timed_out: '⏱ timed out',
};

async function targetsOf(client: ApiClient, options: ReplayOptions): Promise<ReplayTarget[]> {
  if (options.check && options.check.length > 0) {
    return Promise.all(options.check.map(async (checkId) => {
      const detail = checkDetailSchema(SET_A).parse(await client.call('GET', `/api/checks/${encodeURIComponent(checkId)}`)) as { check: { repositoryId: string; naturalLanguageTask: string } };
      if (detail.check.repositoryId !== options.repository) throw userError(ErrorCode.CliUsage, `Check ${checkId} belongs to another repository than ${options.repository}`);
      return { checkId, name: detail.check.naturalLanguageTask };
    }));
  }
  const list = checkListSchema(SET_A).parse(await client.call('GET', `/api/checks?repositoryId=${encodeURIComponent(options.repository)}&limit=${CHECK_PAGE}`)) as {
    checks: { testId: string; status: string; naturalLanguageTask: string }[];
  };
  if (list.checks.length >= CHECK_PAGE) {
    throw userError(ErrorCode.CliUsage, `The repository has ${CHECK_PAGE} or more checks, more than one replay lists; choose them with --check`);
  }
  return list.checks.filter((check) => check.status === 'active').map((check) => ({ checkId: check.testId, name: check.naturalLanguageTask }));
}

/**
 * `qa replay`: replays a repository's compiled checks against a base URL (a preview deployment) from any CI, prints
 * a line per check as it finishes and a summary, writes JUnit XML and a Markdown summary on request, and exits 0 when
 * every replay passed, 1 when one failed or errored, 2 on a usage or service error, 3 when `--timeout` (or SIGINT or
 * SIGTERM) stopped it first; the replays left running are cancelled on the way out. A client verb.
 */
export function registerReplay(program: Command, context: CliContext, terminal: Terminal): void {
  program
    .command('replay')
    .description("replay a repository's checks against a base URL (for CI): JUnit, a Markdown summary, exit 0 only if all passed")
    .requiredOption('--repository <id>', 'the connected repository (projectId)')
    .requiredOption('--base-url <url>', 'the deployment to test, e.g. a preview URL')
    .option('--check <id>', 'replay only this check (testId); repeatable', collect)
    .option('--changed-files <file>', 'the changed files, one per line: only the checks of the flows they touch, as coverage links say (every check until the repository has coverage)')
    .option('--since <git ref>', 'the files changed since this ref in the current checkout (git diff <ref>...HEAD), as --changed-files')
    .option('--parallel <n>', 'replays at once', parallelism, 2)
    .option('--junit <file>', 'write JUnit XML there')
    .option('--summary <file>', 'write a Markdown summary there (e.g. $GITHUB_STEP_SUMMARY)')
    .option('--timeout <duration>', 'stop and cancel what still runs after this long (90s, 15m, 1h)', duration, 30 * 60_000)
    .option('--allow <host[:port]>', 'another origin the browser may contact (networkAllowlist); repeatable', collect)
    .action(async (options: ReplayOptions) => {
      if (options.changedFiles !== undefined && options.since !== undefined) throw userError(ErrorCode.CliUsage, 'Give at most one of --changed-files and --since');
      if (options.check && (options.changedFiles !== undefined || options.since !== undefined)) {
        throw userError(ErrorCode.CliUsage, '--check chooses the checks itself: give it without --changed-files or --since');
      }
      const client = apiClientOf(context);
      const changed = options.changedFiles !== undefined ? await changedFilesFrom(options.changedFiles) : options.since !== undefined ? await changedSince(options.since) : null;
      let targets = await targetsOf(client, options);
      const out = terminal.stdout;
      if (changed !== null) {
        const chosen = await selectForChange(client, options.repository, targets, changed);
        out.write(`${changed.length} changed file(s): ${printable(chosen.selection.reason)}; ${chosen.selection.skipped} check(s) skipped\n`);
        targets = chosen.targets;
      }
      out.write(`Replaying ${targets.length} check(s) of ${options.repository} against ${printable(options.baseUrl)}, ${options.parallel} at a time\n`);

      const controller = new AbortController();
      const stop = () => controller.abort();
      const timer = setTimeout(stop, options.timeout);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const startedAt = new Date();
      let results: ReplayResult[];
      try {
        results = await runReplays(
          {
            client,
            signal: controller.signal,
            onResult: (result) => {
              const why = result.status === 'passed' ? '' : `  ${printable(failureMessage(result))}`;
              out.write(`${MARKS[result.status]}  ${(result.durationMs / 1000).toFixed(1)} s  ${printable(result.name)}${why}${result.links.job ? `  ${result.links.job}` : ''}\n`);
            },
          },
          { repositoryId: options.repository, baseUrl: options.baseUrl, networkAllowlist: options.allow ?? [], targets, parallel: options.parallel },
        );
      } finally {
        clearTimeout(timer);
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }

      const suite = { name: options.repository, baseUrl: options.baseUrl, timestamp: startedAt.toISOString(), results };
      if (options.junit) await writeFile(options.junit, renderJUnit(suite));
      if (options.summary) await writeFile(options.summary, renderSummary(options.repository, options.baseUrl, results), { flag: 'a' });
      const count = (status: ReplayResult['status']) => results.filter((result) => result.status === status).length;
      const elapsed = ((Date.now() - startedAt.getTime()) / 1000).toFixed(1);
      out.write(`${count('passed')} passed, ${count('failed')} failed, ${results.length - count('passed') - count('failed')} did not finish (${results.length} checks) in ${elapsed} s\n`);
      if (count('timed_out') > 0) throw userError(ErrorCode.ReplayTimedOut, `qa replay stopped before every replay finished; ${count('timed_out')} were cancelled or not started`);
      if (count('passed') < results.length) throw userError(ErrorCode.ReplayNotPassed, `${results.length - count('passed')} of ${results.length} replays did not pass`);
    });
}
