import type { Command } from 'commander';
import { SET_A } from '../../core/naming.js';
import type { CliContext } from '../context.js';
import { registerJobVerbs } from '../job-verbs.js';
import type { Terminal } from '../terminal.js';

/** `qa jobs create|get`: Set A of the job API (/api/jobs: jobId, projectId, testId). A client verb. */
export function registerJobs(program: Command, context: CliContext, terminal: Terminal): void {
  registerJobVerbs(program, context, terminal, SET_A);
}
