import { describe, expect, it } from '@jest/globals';
import { actorName } from '../../../src/core/principal.js';
import { startedByText } from '../../../web/src/jobs/started-by.js';

const me = { id: 'u-me', name: 'Ada' };
const machine = (actor: string) => ({ kind: 'machine' as const, actor });

describe('startedByText', () => {
  it('names people: you, or their id', () => {
    expect(startedByText({ kind: 'person', actor: 'user:u-me' }, me)).toBe('you (Ada)');
    expect(startedByText({ kind: 'person', actor: 'user:u-me' }, { id: 'u-me', name: null })).toBe('you');
    expect(startedByText({ kind: 'person', actor: 'user:u-other' }, me)).toBe('u-other');
    expect(startedByText(null, me)).toBe('');
  });

  it("shortens each machine actor the service names (src/core/principal.ts's actorName)", () => {
    const organizationId = 'o-1';
    const api = actorName({ kind: 'machine', organizationId, actor: { type: 'api_key', apiKeyId: '8906f8a7-63fe-474f-a638-be9d6d3a5011' } } as Parameters<typeof actorName>[0]);
    expect(startedByText(machine(api), me)).toBe('API key 8906f8a7');
    const schedule = actorName({ kind: 'machine', organizationId, actor: { type: 'schedule', scheduleId: 'a1b2c3d4-0000' } } as Parameters<typeof actorName>[0]);
    expect(startedByText(machine(schedule), me)).toBe('schedule a1b2c3d4');
    const chat = actorName({ kind: 'machine', organizationId, actor: { type: 'chat', teamId: 'T1', userId: 'U42' } } as Parameters<typeof actorName>[0]);
    expect(startedByText(machine(chat), me)).toBe('Slack U42');
    const host = actorName({ kind: 'machine', organizationId, actor: { type: 'codehost', installationId: 7, login: 'octocat' } } as Parameters<typeof actorName>[0]);
    expect(startedByText(machine(host), me)).toBe('octocat (code host)');
    const bare = actorName({ kind: 'machine', organizationId, actor: { type: 'codehost', installationId: 7, login: null } } as Parameters<typeof actorName>[0]);
    expect(startedByText(machine(bare), me)).toBe('code host 7');
    expect(startedByText(machine('something-new'), me)).toBe('something-new');
  });
});
