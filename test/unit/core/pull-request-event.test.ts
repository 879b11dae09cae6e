import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { AppError } from '../../../src/core/errors.js';
import { deploymentCounts, deploymentEventOf, pullRequestEventOf, pullRequestRunKey, pullRequestSkipReason } from '../../../src/core/pull-request-event.js';
import { pullRequestSettingsOf } from '../../../src/core/pull-request-settings.js';

interface Definition {
  name: string;
  examples: Record<string, unknown>[];
}
const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as Definition[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- recorded payloads edited field by field
function example(event: string, action?: string): Record<string, any> {
  const found = definitions.find((definition) => definition.name === event)!.examples.find((candidate) => action === undefined || candidate.action === action)!;
  return { ...structuredClone(found), installation: { id: 42 } };
}

describe('pullRequestEventOf', () => {
  it('reads an opened pull request of the recorded payload', () => {
    expect(pullRequestEventOf(example('pull_request', 'opened'))).toEqual({
      action: 'opened',
      installationId: 42,
      owner: 'Codertocat',
      repo: 'Hello-World',
      number: 2,
      headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
      updatedAt: new Date('2019-05-15T15:20:33Z'),
      draft: false,
      fork: false,
    });
  });

  it('calls a head in another repository, or a deleted one, a fork', () => {
    const other = example('pull_request', 'opened');
    other.pull_request.head.repo = { ...other.pull_request.head.repo, full_name: 'mallory/Hello-World' };
    const deleted = example('pull_request', 'opened');
    deleted.pull_request.head.repo = null;
    expect(pullRequestEventOf(other)?.fork).toBe(true);
    expect(pullRequestEventOf(deleted)?.fork).toBe(true);
  });

  it('reads a closed pull request (its head is recorded as closed), and nothing for other actions, whatever the rest of the payload', () => {
    expect(pullRequestEventOf(example('pull_request', 'closed'))).toMatchObject({ action: 'closed', number: 2, headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821' });
    expect(pullRequestEventOf({ action: 'labeled' })).toBeUndefined();
    expect(pullRequestEventOf({ action: 'edited', installation: 'not an object' })).toBeUndefined();
  });

  it('throws webhook.payload_invalid for a payload of the wrong shape, naming the field', () => {
    const missing = example('pull_request', 'synchronize');
    delete missing.installation;
    expect(() => pullRequestEventOf(missing)).toThrow(/installation/);
    expect(() => pullRequestEventOf({})).toThrow(AppError);
    try {
      pullRequestEventOf({ ...example('pull_request', 'opened'), pull_request: { number: 1 } });
    } catch (error) {
      expect(error).toMatchObject({ code: 'webhook.payload_invalid' });
    }
    expect.assertions(3);
  });
});

describe('deploymentEventOf', () => {
  it('reads a success, preferring environment_url to target_url', () => {
    const body = example('deployment_status');
    body.deployment_status = { ...body.deployment_status, environment_url: 'https://pr-2.example.net/', target_url: 'https://ci.example.net/log' };
    expect(deploymentEventOf(body)).toMatchObject({ sha: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e', environment: 'production', url: 'https://pr-2.example.net/', urlProblem: undefined });
    body.deployment_status.environment_url = null;
    expect(deploymentEventOf(body)).toMatchObject({ url: 'https://ci.example.net/log', urlProblem: undefined });
  });

  it('says why an address cannot be a target', () => {
    const body = example('deployment_status');
    expect(deploymentEventOf(body)?.urlProblem).toBe('no environment_url or target_url');
    body.deployment_status.environment_url = 'https://u:p@pr.example.net/';
    expect(deploymentEventOf(body)?.urlProblem).toMatch(/user name or password/);
  });

  it('ignores states other than success', () => {
    const body = example('deployment_status');
    body.deployment_status.state = 'failure';
    expect(deploymentEventOf(body)).toBeUndefined();
  });
});

describe('run rules', () => {
  it('skips forks and drafts unless the settings allow them', () => {
    const defaults = pullRequestSettingsOf(null);
    expect(pullRequestSkipReason(defaults, { draft: false, fork: false })).toBeUndefined();
    expect(pullRequestSkipReason(defaults, { draft: true, fork: true })).toBe('fork');
    expect(pullRequestSkipReason(pullRequestSettingsOf({ runForks: true }), { draft: true, fork: true })).toBe('draft');
    expect(pullRequestSkipReason(pullRequestSettingsOf({ runForks: true, runDrafts: true }), { draft: true, fork: true })).toBeUndefined();
  });

  it('counts deployments of the configured environment only, without regard to case', () => {
    expect(deploymentCounts(pullRequestSettingsOf(null), 'anything')).toBe(true);
    expect(deploymentCounts(pullRequestSettingsOf({ deploymentEnvironment: 'Preview' }), 'preview')).toBe(true);
    expect(deploymentCounts(pullRequestSettingsOf({ deploymentEnvironment: 'Preview' }), 'production')).toBe(false);
  });

  it('keys a run by repository, pull request, head and check, within the source-key column', () => {
    const key = pullRequestRunKey({ repositoryId: 'r'.repeat(36), number: 2_147_483_647, headSha: 'f'.repeat(40), checkId: 'c'.repeat(36) });
    expect(key.length).toBeLessThanOrEqual(200);
    expect(pullRequestRunKey({ repositoryId: 'r', number: 1, headSha: 'a', checkId: 'c' })).not.toBe(pullRequestRunKey({ repositoryId: 'r', number: 1, headSha: 'b', checkId: 'c' }));
  });
});
