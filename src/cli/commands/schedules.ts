import { InvalidArgumentError, type Command } from 'commander';
import { ErrorCode, userError } from '../../core/errors.js';
import type { ApiClient } from '../api-client.js';
import { apiClientOf, collect } from '../client-verbs.js';
import type { CliContext } from '../context.js';
import { printJson, type Terminal } from '../terminal.js';

interface CreateOptions {
  test?: string;
  scenario?: string;
  cron?: string;
  every?: number;
  timezone?: string;
  baseUrl: string;
  allow?: string[];
  disabled?: boolean;
}

/** `--every <minutes>`: a whole number; the API checks its range (5–10080) and says so. */
function minutes(value: string): number {
  if (!/^[0-9]{1,6}$/.test(value)) throw new InvalidArgumentError('must be a whole number of minutes');
  return Number(value);
}

function remove(client: ApiClient, path: string): Promise<unknown> {
  return client.call('DELETE', path);
}

/**
 * `qa schedules create|list|get|delete`: replays of a compiled check on a cron expression or an interval
 * (/api/schedules). Each prints the API's JSON on stdout. A client verb.
 */
export function registerSchedules(program: Command, context: CliContext, terminal: Terminal): void {
  const group = program.command('schedules').description('schedule replays of compiled checks through the API (/api/schedules; needs QA_API_KEY)');

  group
    .command('create')
    .description('replay a compiled check on a cron expression or every so many minutes')
    .option('--test <id>', 'the compiled check to replay (testId); or give --scenario')
    .option('--scenario <id>', 'the same in Set B words (scenarioId)')
    .option('--cron <expression>', 'when to run: 5 fields, minute hour day-of-month month day-of-week (e.g. "0 6 * * 1-5"); or give --every')
    .option('--every <minutes>', 'run every so many minutes (5 to 10080); or give --cron', minutes)
    .option('--timezone <zone>', 'the IANA time zone the cron expression is read in (default UTC)')
    .requiredOption('--base-url <url>', 'the web app to test (http or https)')
    .option('--allow <host[:port]>', 'another origin the browser may contact (networkAllowlist): a host means its ports 80 and 443; repeatable', collect)
    .option('--disabled', 'create it switched off (no runs)')
    .action(async (options: CreateOptions) => {
      if ((options.test === undefined) === (options.scenario === undefined)) throw userError(ErrorCode.CliUsage, 'Give exactly one of --test and --scenario');
      if ((options.cron === undefined) === (options.every === undefined)) throw userError(ErrorCode.CliUsage, 'Give exactly one of --cron and --every');
      const created = await apiClientOf(context).call('POST', '/api/schedules', {
        ...(options.test !== undefined ? { testId: options.test } : { scenarioId: options.scenario }),
        ...(options.cron !== undefined ? { cron: options.cron } : { intervalMinutes: options.every }),
        ...(options.timezone !== undefined ? { timezone: options.timezone } : {}),
        baseUrl: options.baseUrl,
        ...(options.allow ? { networkAllowlist: options.allow } : {}),
        ...(options.disabled ? { enabled: false } : {}),
      });
      printJson(terminal.stdout, created);
    });

  group
    .command('list')
    .description("list the organization's schedules with their next runs")
    .action(async () => {
      printJson(terminal.stdout, await apiClientOf(context).call('GET', '/api/schedules'));
    });

  group
    .command('get <id>')
    .description('print a schedule with its next run and latest fires')
    .action(async (id: string) => {
      printJson(terminal.stdout, await apiClientOf(context).call('GET', `/api/schedules/${encodeURIComponent(id)}`));
    });

  group
    .command('delete <id>')
    .description('delete a schedule; the jobs it already created stay')
    .action(async (id: string) => {
      await remove(apiClientOf(context), `/api/schedules/${encodeURIComponent(id)}`);
      printJson(terminal.stdout, { scheduleId: id, deleted: true });
    });
}
