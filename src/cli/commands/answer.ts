import type { Command } from 'commander';
import { SET_A, SET_B } from '../../core/naming.js';
import { apiClientOf, collect } from '../client-verbs.js';
import type { CliContext } from '../context.js';
import { printQuestions } from '../job-outcome.js';
import { createdOf } from '../job-shapes.js';
import { printJson, type Terminal } from '../terminal.js';

/**
 * `qa answer <id> --answer <text> [--answer <text> …] [--runs]`: answers a review_required job, one `--answer` per
 * question in order (spec 4.2). Prints the 202 body (the linked child job); a child that itself needs answers gets
 * its questions on stderr. A client verb.
 */
export function registerAnswer(program: Command, context: CliContext, terminal: Terminal): void {
  program
    .command('answer <id>')
    .description('answer the questions of a review_required job; a linked job carries the answers')
    .requiredOption('--answer <text>', 'an answer; repeat it, once per question, in question order', collect)
    .option('--runs', 'use the Set B endpoints (/api/runs) and names')
    .action(async (id: string, options: { answer: string[]; runs?: boolean }) => {
      const names = options.runs ? SET_B : SET_A;
      const created = await apiClientOf(context).call('POST', `/api/${names.collection}/${encodeURIComponent(id)}/clarifications`, {
        answers: options.answer,
      });
      printJson(terminal.stdout, created);
      const { jobId, questions } = createdOf(names, created);
      if (questions !== undefined) printQuestions(terminal.stderr, names, jobId, questions);
    });
}
