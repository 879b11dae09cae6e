import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/** `qa keys create --org <slug>`: an API key for the organization (created if needed); the key alone on the last line. */
export function registerKeys(program: Command, context: CliContext, print: (line: string) => void): void {
  const keys = program.command('keys').description('manage API keys (an administrator verb: talks to the database)');
  keys
    .command('create')
    .description('issue an API key for an organization, creating the organization if needed')
    .requiredOption('--org <slug>', 'organization slug (lowercase letters, digits, hyphens)')
    .option('--label <text>', 'a note on what the key is for')
    .action(async (options: { org: string; label?: string }) => {
      const { issueApiKey } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      const key = await issueApiKey(config, logger, options.org, options.label);
      print(`Created an API key for organization "${options.org}". It is shown once; store it now:`);
      print(key);
    });
}
