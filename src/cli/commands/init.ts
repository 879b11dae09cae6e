import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/** Quotes a value for a POSIX shell line the person will paste. */
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * `qa init --base-url <url>`: a local organization, key, installation and repository on the embedded default, and
 * the exact command of a first job. An administrator verb: it talks to the database.
 */
export function registerInit(program: Command, context: CliContext, print: (line: string) => void): void {
  program
    .command('init')
    .description('set up a local organization, API key, installation and repository for an app, and print the first job')
    .requiredOption('--base-url <url>', 'the app to check, e.g. http://localhost:5173')
    .option('--org <slug>', 'organization slug', 'local')
    .option('--name <name>', "repository name (default: the base URL's host and port)")
    .option('--on-mysql', 'set up on a MySQL deployment too (DATABASE_URL set); refused otherwise')
    .action(async (options: { baseUrl: string; org: string; name?: string; onMysql?: boolean }) => {
      const { setUpLocally } = await import('../local-setup.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      const setup = await setUpLocally(config, logger, { baseUrl: options.baseUrl, orgSlug: options.org, name: options.name, onMysql: options.onMysql === true });
      const made = setup.reused.repository ? 'found' : 'created';
      print(`Organization "${setup.organizationSlug}", installation "local" and repository "${setup.repositoryName}" (${setup.repositoryId}) ${made} for ${setup.baseUrl}.`);
      print(setup.keyFile ? `API key (kept in ${setup.keyFile}):` : 'API key (shown once; store it now):');
      print(setup.apiKey);
      print('Next: start the service (npm start, or qa start) and, in another terminal, run a first check:');
      const task = 'Check that the home page loads';
      print(
        `QA_API_KEY=${setup.apiKey} npx qa jobs create --project ${setup.repositoryId} --base-url ${shellQuote(setup.baseUrl)} --task ${shellQuote(task)} --follow`,
      );
    });
}
