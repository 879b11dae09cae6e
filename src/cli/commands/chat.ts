import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/**
 * `qa chat connect --team <id> --org <slug>` and `qa chat disconnect --team <id>`: which organization a Slack
 * workspace serves. An administrator verb (the database, not the API): installing the app never picks one.
 */
export function registerChat(program: Command, context: CliContext, print: (line: string) => void): void {
  const chat = program.command('chat').description('connect Slack workspaces to organizations (an administrator verb)');
  chat
    .command('connect')
    .description('let a Slack workspace (team) run jobs for an organization: with CHAT_BOT_TOKEN for one workspace, or an installed one')
    .requiredOption('--team <id>', "the workspace's team id (T…)")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--name <name>', "the workspace's name, for people")
    .action(async (options: { team: string; org: string; name?: string }) => {
      const { connectChatWorkspace } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      const connected = await connectChatWorkspace(config, logger, { teamId: options.team, organizationSlug: options.org, teamName: options.name });
      print(`Slack workspace ${options.team} (${connected.source === 'oauth' ? 'installed' : 'CHAT_BOT_TOKEN'}) is connected to organization "${options.org}"`);
    });
  chat
    .command('disconnect')
    .description('stop a Slack workspace running jobs (its installation stays; connect it again to resume)')
    .requiredOption('--team <id>', "the workspace's team id (T…)")
    .action(async (options: { team: string }) => {
      const { disconnectChatWorkspace } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      await disconnectChatWorkspace(config, logger, options.team);
      print(`Slack workspace ${options.team} is disconnected`);
    });
}
