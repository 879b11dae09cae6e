import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { runService } from '../run-until-signal.js';

export function registerServe(program: Command, context: CliContext): void {
  program
    .command('serve')
    .description('run the HTTP service only (no job processors, no browser) until SIGTERM or SIGINT; workers run the jobs')
    .action(async () => {
      const { startServe } = await import('../../compose/index.js');
      await runService(context, startServe);
    });
}
