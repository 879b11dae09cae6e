import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function registerMigrate(program: Command, context: CliContext): void {
  program
    .command('migrate')
    .description('create the database if it is missing and apply pending migrations, then exit')
    .action(async () => {
      // Imported on use: the composition root loads the whole service, which other verbs do not need.
      const { migrate } = await import('../../main.js');
      const { config, logger } = context.load();
      await migrate(config, logger);
    });
}
