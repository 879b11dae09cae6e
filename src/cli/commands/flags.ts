import type { Command } from 'commander';
import { CAPABILITIES, type Capability } from '../../core/execution.js';
import { ErrorCode, userError } from '../../core/errors.js';
import type { CliContext } from '../context.js';

function capabilityOf(value: string): Capability {
  if ((CAPABILITIES as readonly string[]).includes(value)) return value as Capability;
  throw userError(ErrorCode.FlagsUnknownCapability, `Unknown capability "${value}": use ${CAPABILITIES.join(' or ')}`);
}

/** `qa flags pause|resume live|ai [--org <slug>]`: an operator's switch; without --org it applies to everyone. */
export function registerFlags(program: Command, context: CliContext, print: (line: string) => void): void {
  const flags = program.command('flags').description('pause or resume live or AI execution (an administrator verb)');
  for (const action of ['pause', 'resume'] as const) {
    flags
      .command(`${action} <capability>`)
      .description(`${action} live (browser runs) or ai (planner) execution, for everyone or one organization`)
      .option('--org <slug>', 'only this organization')
      .action(async (capability: string, options: { org?: string }) => {
        const { setExecutionFlag } = await import('../admin.js');
        const { config, logger } = context.load({ logsTo: 'stderr' });
        const chosen = capabilityOf(capability);
        await setExecutionFlag(config, logger, chosen, action === 'pause', options.org);
        print(`${chosen} execution ${action === 'pause' ? 'paused' : 'resumed'} for ${options.org ? `organization "${options.org}"` : 'every organization'}`);
      });
  }
}
