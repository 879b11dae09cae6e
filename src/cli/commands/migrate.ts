import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function registerMigrate(program: Command, context: CliContext): void {
  program
    .command('migrate')
    .description('create the database if it is missing and apply pending migrations, then exit')
    .action(async () => {
      // Imported on use: the store (TypeORM and its drivers) is more than the client verbs need.
      const { migrate } = await import('../admin.js');
      const { config, logger } = context.load();
      await migrate(config, logger);
    });
}
