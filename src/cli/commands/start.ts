import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { runService } from '../run-until-signal.js';

export function registerStart(program: Command, context: CliContext): void {
  program
    .command('start')
    .description('run the HTTP service and the job processors in one process until SIGTERM or SIGINT')
    .action(async () => {
      const { startAll } = await import('../../compose/index.js');
      await runService(context, startAll);
    });
}
