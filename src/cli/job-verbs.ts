import { Option, type Command } from 'commander';
import { ErrorCode, userError } from '../core/errors.js';
import { JOB_TRIGGERS } from '../core/job.js';
import type { NamingSet } from '../core/naming.js';
import { apiClientOf, collect, followToTheEnd } from './client-verbs.js';
import type { CliContext } from './context.js';
import { printQuestions } from './job-outcome.js';
import { createdOf } from './job-shapes.js';
import { printJson, type Terminal } from './terminal.js';

/** The options naming the repository and the check under each naming set, as the request fields do. */
const FLAGS = {
  A: { repository: 'project', check: 'test', noun: 'job', checkNoun: 'check' },
  B: { repository: 'repository', check: 'scenario', noun: 'run', checkNoun: 'scenario' },
} as const;

interface CreateOptions {
  project?: string;
  repository?: string;
  test?: string;
  scenario?: string;
  task?: string;
  baseUrl: string;
  allow?: string[];
  commit?: string;
  trigger: string;
  follow?: boolean;
}

/**
 * `qa jobs create|get` (Set A, /api/jobs) or `qa runs create|get` (Set B, /api/runs): the same verbs in each naming
 * set's words. Both print the API's JSON on stdout.
 */
export function registerJobVerbs(program: Command, context: CliContext, terminal: Terminal, names: NamingSet): void {
  const flags = FLAGS[names.set];
  const group = program
    .command(names.collection)
    .description(`create and read QA ${flags.noun}s through the API (/api/${names.collection}; needs QA_API_KEY)`);

  group
    .command('create')
    .description(`start a ${flags.noun}: a plain-language task, or a replay of a stored ${flags.checkNoun}`)
    .requiredOption(`--${flags.repository} <id>`, `the connected repository (${names.repositoryId})`)
    .option(`--${flags.check} <id>`, `replay this stored ${flags.checkNoun} (${names.checkId}); or give --task`)
    .option('--task <text>', `what to check, in plain language (naturalLanguageTask); or give --${flags.check}`)
    .requiredOption('--base-url <url>', 'the web app to test (http or https)')
    .option('--allow <host[:port]>', 'another origin the browser may contact (networkAllowlist): a host means its ports 80 and 443; repeatable', collect)
    .option('--commit <sha>', 'the repository revision (7 to 64 hex characters)')
    .addOption(new Option('--trigger <kind>', 'where the request comes from').choices(JOB_TRIGGERS).default('cli'))
    .option('--follow', `then follow its events like \`qa follow\` (exit code from how the ${flags.noun} ends)`)
    .action(async (options: CreateOptions) => {
      const checkId = names.set === 'A' ? options.test : options.scenario;
      if ((checkId === undefined) === (options.task === undefined)) {
        throw userError(ErrorCode.CliUsage, `Give exactly one of --${flags.check} and --task`);
      }
      const client = apiClientOf(context);
      const created = await client.call('POST', `/api/${names.collection}`, {
        [names.repositoryId]: names.set === 'A' ? options.project : options.repository,
        ...(checkId !== undefined ? { [names.checkId]: checkId } : { naturalLanguageTask: options.task }),
        baseUrl: options.baseUrl,
        ...(options.allow ? { networkAllowlist: options.allow } : {}),
        ...(options.commit !== undefined ? { commitSha: options.commit } : {}),
        trigger: options.trigger,
      });
      printJson(terminal.stdout, created);
      const { jobId, questions } = createdOf(names, created);
      if (options.follow) return followToTheEnd(client, terminal, names, jobId);
      if (questions !== undefined) printQuestions(terminal.stderr, names, jobId, questions);
    });

  group
    .command('get <id>')
    .description(`print a ${flags.noun}: its record, events, artifacts and ${names.results}`)
    .action(async (id: string) => {
      printJson(terminal.stdout, await apiClientOf(context).call('GET', `/api/${names.collection}/${encodeURIComponent(id)}`));
    });
}
