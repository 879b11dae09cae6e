import { describe, expect, it } from '@jest/globals';
import { installationChange } from '../../../src/core/codehost-installation.js';
import { AppError } from '../../../src/core/errors.js';
import { examplePayload } from '../../support/codehost-deliveries.js';

describe('installationChange', () => {
  it('reads a recorded installation.created: active, its account, its repositories, the time from Unix seconds', () => {
    expect(installationChange('installation', examplePayload('installation', 'created'))).toEqual({
      installationId: '957387',
      account: { login: 'Codertocat', type: 'User' },
      repositorySelection: 'selected',
      status: 'active',
      reportedAt: new Date(1557933591 * 1000),
      added: [{ repositoryId: '186853002', fullName: 'Codertocat/Hello-World', private: false }],
      removed: [],
    });
  });

  it('reads suspend (ISO timestamps, suspended_at counted) and deleted, which list no repository changes', () => {
    expect(installationChange('installation', examplePayload('installation', 'suspend'))).toMatchObject({ status: 'suspended', reportedAt: new Date('2021-04-29T02:32:50Z'), added: [] });
    expect(installationChange('installation', examplePayload('installation', 'unsuspend'))).toMatchObject({ status: 'active' });
    expect(installationChange('installation', examplePayload('installation', 'deleted'))).toMatchObject({ installationId: '2', status: 'deleted', added: [], removed: [] });
  });

  it('reads installation_repositories added and removed, leaving the status alone', () => {
    expect(installationChange('installation_repositories', examplePayload('installation_repositories', 'added'))).toMatchObject({
      status: undefined,
      added: [{ repositoryId: '186853007', fullName: 'Codertocat/Space', private: false }],
      removed: [],
    });
    expect(installationChange('installation_repositories', examplePayload('installation_repositories', 'removed'))).toMatchObject({
      status: undefined,
      added: [],
      removed: [expect.objectContaining({ fullName: 'octocat/Hello-World' })],
    });
  });

  it('records nothing for other actions and other events', () => {
    expect(installationChange('installation', examplePayload('installation', 'new_permissions_accepted'))).toBeUndefined();
    expect(installationChange('pull_request', examplePayload('pull_request', 'opened'))).toBeUndefined();
  });

  it('refuses a payload of the wrong shape with webhook.payload_invalid naming the field', () => {
    const broken = { ...examplePayload('installation', 'created'), installation: { id: 'seven' } };
    expect(() => installationChange('installation', broken)).toThrow(AppError);
    expect(() => installationChange('installation', broken)).toThrow(/installation\.id/);
    const badTime = examplePayload('installation', 'created') as { installation: Record<string, unknown> };
    badTime.installation.updated_at = 'not a date';
    expect(() => installationChange('installation', badTime)).toThrow(expect.objectContaining({ code: 'webhook.payload_invalid' }) as never);
  });
});
