import { describe, expect, it } from '@jest/globals';
import { AppError, ErrorCode } from '../../../src/core/errors.js';
import { targetFor } from '../../../src/webhooks/codehost/comment-target.js';
import { hasWriteAccess } from '../../../src/webhooks/codehost/issue-comment-handler.js';
import { readIssueComment, triageComment, type IssueComment } from '../../../src/webhooks/codehost/issue-comment-payload.js';
import * as replies from '../../../src/webhooks/codehost/issue-comment-replies.js';
import { examplePayload } from '../../support/codehost-deliveries.js';

const comment = (fields: Partial<IssueComment> = {}): IssueComment => ({
  action: 'created',
  commentId: 1,
  body: '/qa check',
  createdAt: new Date('2026-01-10T10:00:00Z'),
  login: 'carol',
  userType: 'User',
  pullNumber: 7,
  pullAuthor: 'octocat',
  owner: 'acme',
  repo: 'shop',
  installationId: 42,
  ...fields,
});

describe('readIssueComment', () => {
  it("reads GitHub's recorded payload: a comment on a plain issue, through no installation", () => {
    expect(readIssueComment(examplePayload('issue_comment', 'created'))).toMatchObject({
      action: 'created',
      commentId: 492700400,
      login: 'Codertocat',
      userType: 'User',
      pullNumber: null,
      pullAuthor: 'Codertocat',
      owner: 'Codertocat',
      repo: 'Hello-World',
    });
  });

  it('refuses a payload of another shape with webhook.payload_invalid, naming the field', () => {
    const payload = examplePayload('issue_comment', 'created') as { comment: Record<string, unknown> };
    delete payload.comment.id;
    expect(() => readIssueComment(payload)).toThrow(expect.objectContaining({ code: ErrorCode.WebhookPayloadInvalid, message: expect.stringContaining('comment.id') }));
  });
});

describe('triageComment', () => {
  it.each([
    [comment(), 'qa-bot', null],
    [comment({ action: 'edited' }), 'qa-bot', 'the comment was edited, not created'],
    [comment({ pullNumber: null }), 'qa-bot', 'a comment on an issue, not a pull request'],
    [comment({ userType: 'Bot', login: 'renovate[bot]' }), 'qa-bot', 'a comment by a bot'],
    [comment({ login: 'QA-Bot[bot]' }), 'qa-bot', 'a comment by a bot'],
    [comment({ login: 'qa-bot[bot]' }), undefined, null],
    [comment({ installationId: null }), 'qa-bot', 'a delivery that names no installation'],
  ])('%#', (given, botName, reason) => {
    expect(triageComment(given, botName)).toEqual(reason === null ? { request: given } : { ignored: reason });
  });
});

describe('hasWriteAccess', () => {
  it.each([
    [{ permission: 'admin', roleName: 'admin' }, true],
    [{ permission: 'write', roleName: 'maintain' }, true],
    [{ permission: 'write', roleName: null }, true],
    [{ permission: 'read', roleName: 'triage' }, false],
    [{ permission: 'read', roleName: 'read' }, false],
    [{ permission: 'none', roleName: null }, false],
  ])('%j → %s', (access, allowed) => {
    expect(hasWriteAccess(access)).toBe(allowed);
  });
});

describe('replies', () => {
  it('are coded, and echo what people typed only as inert, bounded code', () => {
    const unknown = replies.unknownCheck('@everyone <!-- x --> `rm -rf`');
    expect(unknown).toContain("`@everyone <!-- x --> 'rm -rf'`");
    expect(unknown).toContain(ErrorCode.PrCommentCheckUnknown);
    expect(replies.ambiguousCheck('page', [{ id: 'c1', task: 'x'.repeat(500) }]).length).toBeLessThan(300);
  });

  it('say a refusal of the job core with its code, in one bounded line without markup', () => {
    const paused = new AppError({ kind: 'operational', code: ErrorCode.ExecutionPaused, message: 'AI execution is paused by an operator.\n<b>@ops</b>' });
    expect(replies.refused(paused)).toBe('Sorry, I couldn’t do that: AI execution is paused by an operator. \\<b\\>@\u200bops\\</b\\>.\n\n<sub>`execution.paused`</sub>');
  });

  it('mark each reply with the comment it answers', () => {
    expect(replies.replyMarker(12345)).toBe('<!-- qa-reply:12345 -->');
  });
});

describe('targetFor', () => {
  const sha = 'A'.repeat(40);
  const repository = (pullRequestSettings: Record<string, unknown> | null) => ({ id: 'repo-1', baseUrl: 'https://shop.example', networkAllowlist: ['cdn.example'], pullRequestSettings });
  const asked: unknown[][] = [];
  const deployments = async (...args: [string, string, string?]) => {
    asked.push(args);
    return args[1] === 'a'.repeat(40) ? 'https://deploy-7.preview.example' : undefined;
  };

  it("is the repository's address and allowlist by default, without reading deployments", async () => {
    asked.splice(0);
    expect(await targetFor(repository(null), { number: 7, headSha: sha }, deployments)).toEqual({ baseUrl: 'https://shop.example', networkAllowlist: ['cdn.example'] });
    expect(asked).toEqual([]);
  });

  it('is the preview template filled in with the pull request', async () => {
    const target = await targetFor(repository({ previewUrlTemplate: 'https://pr-{number}.preview.example' }), { number: 7, headSha: sha }, deployments);
    expect(target).toEqual({ baseUrl: 'https://pr-7.preview.example', networkAllowlist: ['cdn.example'] });
  });

  it("is the head's deployment when the repository waits for deployments, of its environment, the sha folded to lower case", async () => {
    asked.splice(0);
    const target = await targetFor(repository({ waitForDeployment: true, deploymentEnvironment: 'preview' }), { number: 7, headSha: sha }, deployments);
    expect(target.baseUrl).toBe('https://deploy-7.preview.example');
    expect(asked).toEqual([['repo-1', 'a'.repeat(40), 'preview']]);
  });

  it('refuses with a coded reply while the head has no successful deployment', async () => {
    await expect(targetFor(repository({ waitForDeployment: true }), { number: 7, headSha: 'b'.repeat(40) }, deployments)).rejects.toMatchObject({ code: 'pr_comment.awaiting_deployment' });
  });
});
