import type { Command } from 'commander';
import { SET_A, SET_B } from '../../core/naming.js';
import { apiClientOf, eventIndex, followToTheEnd } from '../client-verbs.js';
import type { CliContext } from '../context.js';
import type { Terminal } from '../terminal.js';

/**
 * `qa follow <id> [--after n] [--runs]`: a job's events until it is finished. Exit code 0 when it passed, 1 when it
 * failed, errored, was cancelled or waits for answers (review_required: the questions and the `qa answer` command
 * go to stderr), 2 on an error. A client verb.
 */
export function registerFollow(program: Command, context: CliContext, terminal: Terminal): void {
  program
    .command('follow <id>')
    .description('show a job\'s events as they happen, until it is finished; exit 0 only if it passed')
    .option('--after <n>', 'only events after this index (resume where you left off)', eventIndex)
    .option('--runs', 'use the Set B endpoints (/api/runs); the ids are the same')
    .action(async (id: string, options: { after?: number; runs?: boolean }) => {
      await followToTheEnd(apiClientOf(context), terminal, options.runs ? SET_B : SET_A, id, options.after);
    });
}
