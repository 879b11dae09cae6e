import { AppError, ErrorCode } from '../core/errors.js';
import type { JobStatus } from '../core/job-lifecycle.js';
import type { NamingSet } from '../core/naming.js';
import type { JobRecord } from './job-shapes.js';
import type { OutputStream } from './terminal.js';
import { printable } from './terminal.js';

/** `Job` or `Run`, as the naming set says. */
const nounOf = (names: NamingSet) => (names.set === 'A' ? 'Job' : 'Run');

/**
 * A followed job that ended without passing: `failed`, `errored`, `cancelled`, or `review_required` (it cannot run
 * until someone answers). Not a fault of the CLI: `runCli` turns it into exit code 1, where errors give 2.
 */
export class JobNotPassedError extends AppError {
  constructor(
    names: NamingSet,
    readonly jobId: string,
    readonly jobStatus: JobStatus,
  ) {
    const what = `${nounOf(names)} ${jobId}`;
    super({
      kind: 'user',
      code: ErrorCode.JobNotPassed,
      message: jobStatus === 'review_required' ? `${what} is waiting for answers (review_required)` : `${what} ${jobStatus}`,
      details: { jobId, status: jobStatus },
    });
    this.name = 'JobNotPassedError';
  }
}

/** The command that answers `questions`, one `--answer` per question in order. */
export function answerCommand(names: NamingSet, jobId: string, questions: readonly string[]): string {
  const answers = questions.map((_question, i) => `--answer "<answer ${i + 1}>"`).join(' ');
  return `qa answer ${jobId}${names.set === 'B' ? ' --runs' : ''} ${answers}`;
}

/** A review_required job's questions for the person at the keyboard, and the command that answers them. */
export function printQuestions(stream: OutputStream, names: NamingSet, jobId: string, questions: readonly string[]): void {
  const lines = [
    `${nounOf(names)} ${jobId} needs answers before it can run (review_required):`,
    ...questions.map((question, i) => `  ${i + 1}. ${printable(question)}`),
    'Answer in question order with:',
    `  ${answerCommand(names, jobId, questions)}`,
  ];
  stream.write(`${lines.join('\n')}\n`);
}

/**
 * The end of following: a passed job returns (after a line on stderr); any other finished status throws
 * `JobNotPassedError`, a review_required one after printing its questions.
 */
export function settle(stream: OutputStream, names: NamingSet, jobId: string, record: JobRecord): void {
  if (record.status === 'passed') {
    stream.write(`${nounOf(names)} ${jobId} passed\n`);
    return;
  }
  if (record.status === 'review_required') printQuestions(stream, names, jobId, record.resolution?.questions ?? []);
  throw new JobNotPassedError(names, jobId, record.status);
}
