import { describe, expect, it } from '@jest/globals';
import { accessStateOf, blockedByConnections, emailDomain, type ConnectionView, type MembershipView } from '../../../src/core/directory-access.js';

const user = { id: 'user_1', email: 'ada@Acme.test', name: 'Ada' };
const acme = { id: 'svc-acme', name: 'Acme' };
const membership = (fields: Partial<MembershipView> = {}): MembershipView => ({
  status: 'active', role: 'member', directoryOrganizationId: 'org_acme', organizationLive: true, serviceOrganization: acme, ...fields,
});
const connection = (fields: Partial<ConnectionView> = {}): ConnectionView => ({ directoryOrganizationId: 'org_acme', state: 'active', deleted: false, domains: ['acme.test'], ...fields });

describe('emailDomain', () => {
  it('is the lower-case part after the last @, or null', () => {
    expect(emailDomain('Ada@Acme.TEST')).toBe('acme.test');
    expect(emailDomain(null)).toBeNull();
    expect(emailDomain('no-at-sign')).toBeNull();
    expect(emailDomain('trailing@')).toBeNull();
  });
});

describe('blockedByConnections', () => {
  it('blocks a domain an inactive or deleted connection covers and no active one does', () => {
    expect(blockedByConnections([connection({ state: 'inactive' })], 'org_acme', 'acme.test')).toBe(true);
    expect(blockedByConnections([connection({ deleted: true })], 'org_acme', 'acme.test')).toBe(true);
    expect(blockedByConnections([connection({ state: 'inactive' }), connection()], 'org_acme', 'acme.test')).toBe(false);
    expect(blockedByConnections([connection({ state: 'inactive' })], 'org_acme', 'other.test')).toBe(false);
    expect(blockedByConnections([connection({ state: 'inactive' })], 'org_other', 'acme.test')).toBe(false);
    expect(blockedByConnections([connection({ state: 'inactive' })], 'org_acme', null)).toBe(false);
  });
});

describe('accessStateOf', () => {
  it('names every missing piece while nothing is known', () => {
    expect(accessStateOf({ user: null, memberships: [], connections: [] })).toEqual({ state: 'setup_required', missing: ['user', 'organization', 'membership'] });
  });

  it('wants the membership active, and its organization live and linked', () => {
    expect(accessStateOf({ user, memberships: [membership({ status: 'pending' })], connections: [] })).toEqual({ state: 'setup_required', missing: ['membership'] });
    expect(accessStateOf({ user, memberships: [membership({ status: 'inactive' })], connections: [] })).toEqual({ state: 'setup_required', missing: ['membership'] });
    expect(accessStateOf({ user, memberships: [membership({ organizationLive: false })], connections: [] })).toEqual({ state: 'setup_required', missing: ['organization', 'membership'] });
    expect(accessStateOf({ user, memberships: [membership({ serviceOrganization: null })], connections: [] })).toEqual({ state: 'setup_required', missing: ['organization', 'membership'] });
    expect(accessStateOf({ user: null, memberships: [membership()], connections: [] })).toEqual({ state: 'setup_required', missing: ['user'] });
  });

  it('lists each usable service organization once, admin if any membership is, sorted by name', () => {
    const beta = { id: 'svc-beta', name: 'Beta' };
    const state = accessStateOf({
      user,
      memberships: [
        membership({ directoryOrganizationId: 'org_beta', serviceOrganization: beta }),
        membership(),
        membership({ directoryOrganizationId: 'org_acme_2', role: 'admin' }),
        membership({ directoryOrganizationId: 'org_pending', status: 'pending', serviceOrganization: { id: 'svc-p', name: 'Pending' } }),
      ],
      connections: [],
    });
    expect(state).toEqual({ state: 'ready', user, organizations: [{ id: 'svc-acme', name: 'Acme', role: 'admin' }, { id: 'svc-beta', name: 'Beta', role: 'member' }] });
  });

  it('drops an organization a deactivated connection takes away, and is setup_required when none is left', () => {
    expect(accessStateOf({ user, memberships: [membership()], connections: [connection({ state: 'inactive' })] })).toEqual({ state: 'setup_required', missing: ['membership'] });
    const beta = { id: 'svc-beta', name: 'Beta' };
    expect(accessStateOf({ user, memberships: [membership(), membership({ directoryOrganizationId: 'org_beta', serviceOrganization: beta })], connections: [connection({ deleted: true })] })).toMatchObject({
      state: 'ready',
      organizations: [{ id: 'svc-beta' }],
    });
  });
});
