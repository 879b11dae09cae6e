import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ErrorCode, userError } from '../../core/errors.js';
import { apiClientOf } from '../client-verbs.js';
import type { CliContext } from '../context.js';
import { followIngestion } from '../follow-ingestion.js';
import { printJson, type Terminal } from '../terminal.js';

/** A JSON object from a file (the repository's fields, its settings); a missing, unreadable or non-JSON file is the user's to fix. */
async function readRepositoryFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw userError(ErrorCode.CliFileUnreadable, `Cannot read the repository file ${path}: ${why}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw userError(ErrorCode.CliFileNotJson, `The repository file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw userError(ErrorCode.CliFileNotObject, `The repository file ${path} must hold one JSON object with the repository's fields`);
  }
  return body as Record<string, unknown>;
}

/**
 * `qa repos connect --file repo.json`: POST /api/repositories with the file's fields; prints the 202 body.
 * `qa repos pull-requests <repositoryId> --file settings.json`: PATCH /api/repositories/:id with the file as
 * `pullRequests` (preview template, waiting for deployments, drafts, forks); prints the repository.
 * `qa repos get <id>`: the repository with its latest ingestion's state, step, commit and counts.
 * `qa repos follow <ingestionId>`: the ingestion's events, one line each, until it is over (exit 1 when it failed).
 * `qa repos coverage <id>`: flows and edge cases, which checks cover each, the share covered. Client verbs.
 */
export function registerRepos(program: Command, context: CliContext, terminal: Terminal): void {
  const repos = program.command('repos').description('connect repositories and change their settings through the API (needs QA_API_KEY)');
  repos
    .command('pull-requests')
    .description("change how a repository's pull requests run (fields given replace the stored ones; null removes one)")
    .argument('<repositoryId>', 'the repository')
    .requiredOption('--file <path>', 'a JSON file with the settings: previewUrlTemplate, waitForDeployment, deploymentEnvironment, runDrafts, runForks, alwaysRun, sharedFiles')
    .action(async (repositoryId: string, options: { file: string }) => {
      const pullRequests = await readRepositoryFile(options.file);
      printJson(terminal.stdout, await apiClientOf(context).call('PATCH', `/api/repositories/${encodeURIComponent(repositoryId)}`, { pullRequests }));
    });
  const path = (id: string) => `/api/repositories/${encodeURIComponent(id)}`;
  repos
    .command('get')
    .description("a repository, with its latest ingestion's state, step, commit and counts")
    .argument('<repositoryId>', 'the repository')
    .action(async (repositoryId: string) => printJson(terminal.stdout, await apiClientOf(context).call('GET', path(repositoryId))));
  repos
    .command('follow')
    .description("an ingestion's events until it is over (resumes after a cut)")
    .argument('<ingestionId>', 'the ingestion run')
    .action(async (ingestionId: string) => followIngestion({ client: apiClientOf(context), out: terminal.stdout }, ingestionId));
  repos
    .command('coverage')
    .description("a repository's flows and edge cases, which checks cover each, and the share covered")
    .argument('<repositoryId>', 'the repository')
    .action(async (repositoryId: string) => printJson(terminal.stdout, await apiClientOf(context).call('GET', `${path(repositoryId)}/coverage`)));
  repos
    .command('connect')
    .description('connect a repository and queue its onboarding')
    .requiredOption('--file <path>', 'a JSON file with the repository fields: provider, providerInstallationId, owner, name, …')
    .action(async (options: { file: string }) => {
      const body = await readRepositoryFile(options.file);
      printJson(terminal.stdout, await apiClientOf(context).call('POST', '/api/repositories', body));
    });
}
