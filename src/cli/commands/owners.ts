import type { Command } from 'commander';
import { OWNER_NAME } from '../../config.js';
import { ErrorCode, userError } from '../../core/errors.js';
import type { CliContext } from '../context.js';

/** `qa owners exclude <owner>`: refuse that owner's repositories from now on (with EXCLUDED_OWNERS). */
export function registerOwners(program: Command, context: CliContext, print: (line: string) => void): void {
  program
    .command('owners')
    .description('manage code-host owners (an administrator verb)')
    .command('exclude <owner>')
    .description("refuse this owner's repositories before anything is stored")
    .action(async (owner: string) => {
      if (!OWNER_NAME.test(owner)) throw userError(ErrorCode.OwnerInvalid, `"${owner}" is not a code-host owner name (letters, digits, hyphens)`);
      const { excludeRepositoryOwner } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      await excludeRepositoryOwner(config, logger, owner);
      print(`Owner "${owner.toLowerCase()}" is excluded`);
    });
}
