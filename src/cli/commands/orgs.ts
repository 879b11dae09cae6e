import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/** `qa orgs link --org <slug> --identity-org <id>`: which service organization a directory organization's members reach. */
export function registerOrgs(program: Command, context: CliContext, print: (line: string) => void): void {
  program
    .command('orgs')
    .description('manage organizations (an administrator verb)')
    .command('link')
    .description("link the identity provider's organization to an organization: its active members may sign in to it (wins over external_id)")
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--identity-org <id>', "the identity provider's organization id (org_…)")
    .action(async (options: { org: string; identityOrg: string }) => {
      const { linkIdentityOrganization } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      const outcome = await linkIdentityOrganization(config, logger, options.org, options.identityOrg);
      print(`Identity organization ${options.identityOrg} is linked to organization "${options.org}"`);
      if (!outcome.directoryOrganizationKnown) print('No webhook has described that identity organization yet; its members reach the organization once one does.');
    });
}
