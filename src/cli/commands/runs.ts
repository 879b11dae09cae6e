import type { Command } from 'commander';
import { SET_B } from '../../core/naming.js';
import type { CliContext } from '../context.js';
import { registerJobVerbs } from '../job-verbs.js';
import type { Terminal } from '../terminal.js';

/** `qa runs create|get`: Set B of the job API (/api/runs: runId, repositoryId, scenarioId). A client verb. */
export function registerRuns(program: Command, context: CliContext, terminal: Terminal): void {
  registerJobVerbs(program, context, terminal, SET_B);
}
