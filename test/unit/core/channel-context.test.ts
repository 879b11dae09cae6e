import { describe, expect, it } from '@jest/globals';
import { notifiedContextOf, pullRequestKey, threadKeyOf } from '../../../src/core/channel-context.js';

const pullRequest = {
  channel: 'codehost',
  provider: 'codehost',
  installationId: 2311213,
  owner: 'Acme',
  repo: 'Shop.Web',
  pullNumber: 42,
  headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
};

describe('notified channel contexts', () => {
  it('reads a pull request context and keys it by repository and number, case folded', () => {
    const context = notifiedContextOf(pullRequest);
    expect(context).toEqual(pullRequest);
    expect(threadKeyOf(context!)).toBe('codehost:acme/shop.web#42');
    expect(pullRequestKey({ owner: 'acme', repo: 'shop.web', pullNumber: 42 })).toBe(threadKeyOf(context!));
  });

  it('keeps a commenter login, a bot login too', () => {
    expect(notifiedContextOf({ ...pullRequest, requestedBy: 'octo-cat' })).toMatchObject({ requestedBy: 'octo-cat' });
    expect(notifiedContextOf({ ...pullRequest, requestedBy: 'renovate[bot]' })).toMatchObject({ requestedBy: 'renovate[bot]' });
  });

  it.each([
    ['a short head sha', { headSha: 'ec26c3e' }],
    ['an upper-case head sha', { headSha: 'EC26C3E57CA3A959CA5AAD62DE7213C562F8C821' }],
    ['a path in the owner', { owner: '../etc' }],
    ['a pull number of zero', { pullNumber: 0 }],
    ['a pull number as a string', { pullNumber: '42' }],
    ['an installation id as a string', { installationId: '2311213' }],
    ['a login with a space', { requestedBy: 'octo cat' }],
  ])('refuses %s', (_name, change) => {
    expect(() => notifiedContextOf({ ...pullRequest, ...change })).toThrow();
  });

  it('reports nowhere for contexts of channels that are not notified', () => {
    expect(notifiedContextOf({ channel: 'email', to: 'a@b.test' })).toBeNull();
    expect(notifiedContextOf(null)).toBeNull();
    expect(notifiedContextOf('codehost')).toBeNull();
  });
});
