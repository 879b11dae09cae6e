import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SHARED_FILES } from '../../../src/core/check-selection.js';
import {
  changePullRequestSettings,
  DEFAULT_PULL_REQUEST_SETTINGS,
  previewTemplateProblem,
  pullRequestSettingsOf,
  pullRequestSettingsSchema,
  pullRequestSettingsChangeSchema,
  pullRequestTarget,
  sharedFilePatterns,
} from '../../../src/core/pull-request-settings.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const repository = { baseUrl: 'https://shop.example' };
const pr = { number: 42, headSha: SHA };

describe('pullRequestTarget', () => {
  it('is the repository baseUrl by default', () => {
    expect(pullRequestTarget(DEFAULT_PULL_REQUEST_SETTINGS, repository, pr)).toEqual({ source: 'repository', url: 'https://shop.example' });
  });

  it('fills the preview template with the number and the head SHA', () => {
    const settings = pullRequestSettingsOf({ previewUrlTemplate: 'https://pr-{number}.preview.example.com/{sha}?again={number}' });
    expect(pullRequestTarget(settings, repository, pr)).toEqual({ source: 'preview', url: `https://pr-42.preview.example.com/${SHA}?again=42` });
  });

  it('waits for a deployment when the repository says so, whatever the template, and then uses its URL', () => {
    const settings = pullRequestSettingsOf({ waitForDeployment: true, previewUrlTemplate: 'https://pr-{number}.preview.example.com' });
    expect(pullRequestTarget(settings, repository, pr)).toEqual({ source: 'awaiting_deployment' });
    expect(pullRequestTarget(settings, repository, pr, 'https://deploy-42.example.net/')).toEqual({ source: 'deployment', url: 'https://deploy-42.example.net/' });
  });

  it('ignores a deployment URL when the repository does not wait for deployments', () => {
    expect(pullRequestTarget(DEFAULT_PULL_REQUEST_SETTINGS, repository, pr, 'https://deploy.example.net/')).toEqual({ source: 'repository', url: 'https://shop.example' });
  });
});

describe('preview templates', () => {
  it.each([
    'https://pr-{number}.preview.example.com',
    'http://preview.example.com/pr/{number}/{sha}',
    'https://{sha}.preview.example.com:8443/',
    'http://127.0.0.1:3000/?pr={number}',
    'https://static.example.com',
  ])('accepts %s', (template) => {
    expect(previewTemplateProblem(template)).toBeUndefined();
  });

  it.each([
    ['https://pr-{branch}.example.com', /only the placeholders/],
    ['https://pr-{}.example.com', /only the placeholders/],
    ['https://pr-{number.example.com', /unmatched/],
    ['https://pr-number}.example.com', /unmatched/],
    ['ftp://pr-{number}.example.com', /http\(s\) URL/],
    ['javascript:alert({number})', /http\(s\) URL/],
    ['{number}', /http\(s\) URL/],
    ['https://user:pw@pr-{number}.example.com', /user name or password/],
    ['https://token@pr-{number}.example.com', /user name or password/],
    [`https://${'a'.repeat(30)}{sha}.example.com`, /valid host name/],
    ['https://pr_{number}.example.com', /valid host name/],
    [`https://example.com/${'a'.repeat(2040)}{number}`, /at most 2048/],
  ])('refuses %s', (template, problem) => {
    expect(previewTemplateProblem(template)).toMatch(problem);
  });
});

describe('settings', () => {
  it('fills the defaults of a partial or absent record', () => {
    expect(pullRequestSettingsOf(null)).toEqual({ waitForDeployment: false, runDrafts: false, runForks: false, alwaysRun: [] });
    expect(pullRequestSettingsSchema.parse({ runForks: true })).toEqual({ waitForDeployment: false, runDrafts: false, runForks: true, alwaysRun: [] });
  });

  it('applies a change field by field, null removing an optional one', () => {
    const current = pullRequestSettingsOf({ previewUrlTemplate: 'https://pr-{number}.example.com', deploymentEnvironment: 'preview', runDrafts: true });
    expect(changePullRequestSettings(current, { previewUrlTemplate: null, runForks: true })).toEqual({
      deploymentEnvironment: 'preview',
      waitForDeployment: false,
      runDrafts: true,
      runForks: true,
      alwaysRun: [],
    });
    expect(changePullRequestSettings(current, {})).toEqual(current);
  });

  it('refuses unknown fields and control characters in an environment name', () => {
    expect(pullRequestSettingsSchema.safeParse({ runAll: true }).success).toBe(false);
    expect(pullRequestSettingsSchema.safeParse({ deploymentEnvironment: 'pre\nview' }).success).toBe(false);
  });
});

describe('always-run checks and shared files', () => {
  const id = '3f1c2a4e-7b1d-4c8e-9a2f-0d5e6b7c8a91';

  it('follows the default shared-file list until the repository sets its own, and goes back to it on null', () => {
    const defaults = pullRequestSettingsOf(null);
    expect(defaults.sharedFiles).toBeUndefined();
    expect(sharedFilePatterns(defaults)).toBe(DEFAULT_SHARED_FILES);
    const own = changePullRequestSettings(defaults, pullRequestSettingsChangeSchema.parse({ sharedFiles: ['config/**', 'config/**', '/Dockerfile'], alwaysRun: [id, id] }));
    expect(own).toMatchObject({ sharedFiles: ['config/**', '/Dockerfile'], alwaysRun: [id] });
    expect(sharedFilePatterns(changePullRequestSettings(own, { sharedFiles: [] }))).toEqual([]);
    const reset = changePullRequestSettings(own, pullRequestSettingsChangeSchema.parse({ sharedFiles: null }));
    expect(reset.sharedFiles).toBeUndefined();
    expect(reset.alwaysRun).toEqual([id]);
  });

  it.each([
    ['a negated pattern', { sharedFiles: ['!src/**'] }, /negated/],
    ['a pattern climbing out of the repository', { sharedFiles: ['../secrets/*'] }, /\.\./],
    ['an unclosed bracket', { sharedFiles: ['src/[abc'] }, /not a valid glob/],
    ['a control character', { sharedFiles: ['src/\u0000x'] }, /control characters/],
    ['an empty pattern', { sharedFiles: [' '] }, /non-empty/],
    ['a huge pattern', { sharedFiles: ['a'.repeat(201)] }, /at most 200/],
    ['too many patterns', { sharedFiles: Array.from({ length: 201 }, (_, i) => `p${i}`) }, /200/],
    ['a check id with path characters', { alwaysRun: ['../../etc'] }, /check id/],
    ['too many always-run checks', { alwaysRun: Array.from({ length: 101 }, (_, i) => `c${i}`) }, /100/],
  ])('refuses %s with a message naming the fault', (_, body, message) => {
    for (const schema of [pullRequestSettingsSchema, pullRequestSettingsChangeSchema]) {
      const parsed = schema.safeParse(body);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.message).join('; ')).toMatch(message);
    }
  });
});
