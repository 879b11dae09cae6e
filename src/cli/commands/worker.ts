import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { runService } from '../run-until-signal.js';

export function registerWorker(program: Command, context: CliContext): void {
  program
    .command('worker')
    .description('run the job processors until SIGTERM or SIGINT (scale out by running more)')
    .action(async () => {
      const { startWorker } = await import('../../compose/index.js');
      await runService(context, startWorker);
    });
}
