import { Command, CommanderError } from 'commander';
import { processEnvironment } from '../config.js';
import { ErrorCode, isAppError } from '../core/errors.js';
import { registerAnswer } from './commands/answer.js';
import { registerChat } from './commands/chat.js';
import { registerFlags } from './commands/flags.js';
import { registerFollow } from './commands/follow.js';
import { registerInit } from './commands/init.js';
import { registerInstallations } from './commands/installations.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerJobs } from './commands/jobs.js';
import { registerKeys } from './commands/keys.js';
import { registerMcp } from './commands/mcp.js';
import { registerMigrate } from './commands/migrate.js';
import { registerOrgs } from './commands/orgs.js';
import { registerOwners } from './commands/owners.js';
import { registerReplay } from './commands/replay.js';
import { registerRepos } from './commands/repos.js';
import { registerRuns } from './commands/runs.js';
import { registerSchedules } from './commands/schedules.js';
import { registerServe } from './commands/serve.js';
import { registerStart } from './commands/start.js';
import { registerWorker } from './commands/worker.js';
import { createCliContext, type CliContext } from './context.js';
import { JobNotPassedError } from './job-outcome.js';
import { processTerminal, type Terminal } from './terminal.js';

/** Exit code of a run that failed: bad configuration, bad usage, or an error from the verb. */
export const EXIT_FAILURE = 2;
/**
 * Exit code of a client verb whose job ended without passing (failed, errored, cancelled, review_required), or whose
 * followed ingestion failed.
 */
export const EXIT_JOB_NOT_PASSED = 1;
/** Exit code of `qa replay` when it ran out of time (or was stopped) before every replay finished. */
export const EXIT_TIMED_OUT = 3;

/**
 * Errors that say the thing a verb followed ended without passing (a replay, an ingestion), not that the verb could
 * not do its work: exit 1, as a job that did not pass.
 */
const NOT_PASSED: ReadonlySet<string> = new Set([ErrorCode.ReplayNotPassed, ErrorCode.IngestionNotSucceeded]);

/** Every verb lives in its own file under ./commands and registers itself here. */
export function createProgram(
  context: CliContext,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  terminal: Terminal = processTerminal(),
): Command {
  const program = new Command('qa')
    .description('QA job service: plain-language checks run in a real browser')
    .exitOverride() // set before the verbs are added, so they inherit it
    .showHelpAfterError();
  registerMigrate(program, context);
  registerServe(program, context);
  registerWorker(program, context);
  registerStart(program, context);
  registerInit(program, context, print);
  registerKeys(program, context, print);
  registerFlags(program, context, print);
  registerOwners(program, context, print);
  registerInstallations(program, context, print);
  registerOrgs(program, context, print);
  registerChat(program, context, print);
  registerWebhooks(program, context, print);
  // Client verbs: they call the running service's REST API (QA_API_URL, QA_API_KEY), never the database.
  registerJobs(program, context, terminal);
  registerRuns(program, context, terminal);
  registerFollow(program, context, terminal);
  registerAnswer(program, context, terminal);
  registerRepos(program, context, terminal);
  registerSchedules(program, context, terminal);
  registerReplay(program, context, terminal);
  registerMcp(program, context);
  return program;
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stderr: Pick<NodeJS.WriteStream, 'write'>;
}

/** Runs one command line and returns the process exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo = { env: processEnvironment(), stderr: process.stderr }): Promise<number> {
  const program = createProgram(createCliContext(io.env), undefined, { stdout: process.stdout, stderr: io.stderr });
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    // Commander has already printed its own usage errors and help.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_FAILURE;
    if (error instanceof JobNotPassedError || (isAppError(error) && NOT_PASSED.has(error.code))) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_JOB_NOT_PASSED;
    }
    if (isAppError(error) && error.code === ErrorCode.ReplayTimedOut) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_TIMED_OUT;
    }
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
}
