import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/** `qa installations connect --installation <id> --org <slug>`: what the dashboard will do, until it exists. */
export function registerInstallations(program: Command, context: CliContext, print: (line: string) => void): void {
  program
    .command('installations')
    .description('manage code-host app installations (an administrator verb)')
    .command('connect')
    .description("connect a code-host installation to an organization, so its repositories are accepted there")
    .requiredOption('--installation <id>', 'the provider installation id')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--provider <name>', 'code-host provider', 'codehost')
    .action(async (options: { installation: string; org: string; provider: string }) => {
      const { connectCodeHostInstallation } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      await connectCodeHostInstallation(config, logger, options.provider, options.installation, options.org);
      print(`Installation ${options.installation} (${options.provider}) is connected to organization "${options.org}"`);
    });
}
