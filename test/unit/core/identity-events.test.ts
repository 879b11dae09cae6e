import { describe, expect, it } from '@jest/globals';
import { ZodError } from 'zod';
import { directoryChangeOf, identityEnvelope } from '../../../src/core/identity-events.js';

const envelope = (event: string, data: Record<string, unknown>) =>
  identityEnvelope.parse({ id: 'event_1', event, data, created_at: '2026-12-01T10:00:05.123Z' });
const updated_at = '2026-12-01T10:00:00.000Z';
const version = { updatedAt: new Date(updated_at), deliveryCreatedAt: new Date('2026-12-01T10:00:05.123Z'), eventId: 'event_1' };

describe('directoryChangeOf', () => {
  it('reads a WorkOS-style user, joining first and last name', () => {
    expect(directoryChangeOf(envelope('user.updated', { id: 'user_1', email: 'a@b.test', email_verified: true, first_name: 'Ada', last_name: 'Lovelace', updated_at }))).toEqual({
      table: 'user', id: 'user_1', kind: 'upsert', version, fields: { email: 'a@b.test', emailVerified: true, name: 'Ada Lovelace' },
    });
  });

  it('reads a deletion as a delete change', () => {
    expect(directoryChangeOf(envelope('organization.deleted', { id: 'org_1', name: 'Acme', updated_at }))).toMatchObject({ table: 'organization', kind: 'delete', fields: { name: 'Acme', externalId: null } });
  });

  it('reads a membership role given as {slug} or as a bare slug', () => {
    const data = { id: 'om_1', user_id: 'u', organization_id: 'o', status: 'active', updated_at };
    expect(directoryChangeOf(envelope('organization_membership.created', { ...data, role: { slug: 'admin' } }))).toMatchObject({ fields: { role: 'admin', status: 'active' } });
    expect(directoryChangeOf(envelope('organization_membership.created', { ...data, role: 'member' }))).toMatchObject({ fields: { role: 'member' } });
  });

  it('takes an invitation state and a connection state from the event name, and connection domains lower-cased, unique and sorted', () => {
    expect(directoryChangeOf(envelope('invitation.expired', { id: 'inv_1', email: 'x@y.test', updated_at }))).toMatchObject({ table: 'invitation', kind: 'upsert', fields: { state: 'expired', organizationId: null } });
    expect(directoryChangeOf(envelope('connection.deactivated', { id: 'conn_1', organization_id: 'o', domains: [{ domain: 'B.test' }, 'a.test', 'b.TEST'], updated_at }))).toMatchObject({
      table: 'connection', kind: 'upsert', fields: { state: 'inactive', domains: ['a.test', 'b.test'] },
    });
    expect(directoryChangeOf(envelope('connection.deleted', { id: 'conn_1', organization_id: 'o', updated_at }))).toMatchObject({ kind: 'delete', fields: { domains: [] } });
  });

  it('reads a deletion that carries only its id, with empty fields, versioned by the delivery when it has no updated_at', () => {
    expect(directoryChangeOf(envelope('organization_membership.deleted', { id: 'om_1' }))).toEqual({
      table: 'membership', id: 'om_1', kind: 'delete', version: { ...version, updatedAt: version.deliveryCreatedAt },
      fields: { userId: '', organizationId: '', status: 'inactive', role: 'member' },
    });
    expect(directoryChangeOf(envelope('user.deleted', { id: 'user_1', updated_at }))).toEqual({ table: 'user', id: 'user_1', kind: 'delete', version, fields: { email: null, emailVerified: false, name: null } });
    expect(directoryChangeOf(envelope('connection.deleted', { id: 'conn_1', updated_at }))).toMatchObject({ kind: 'delete', fields: { organizationId: '', domains: [] } });
    expect(() => directoryChangeOf(envelope('organization.deleted', {}))).toThrow(ZodError);
  });

  it('is null for an event the directory does not keep', () => {
    expect(directoryChangeOf(envelope('session.created', { id: 's' }))).toBeNull();
    expect(directoryChangeOf(envelope('dsync.user.created', { id: 's' }))).toBeNull();
  });

  it('throws a ZodError for a known event with the wrong object', () => {
    expect(() => directoryChangeOf(envelope('user.created', { id: 'user_1' }))).toThrow(ZodError);
    expect(() => directoryChangeOf(envelope('organization_membership.updated', { id: 'om', user_id: 'u', organization_id: 'o', status: 'owner', role: 'member', updated_at }))).toThrow(ZodError);
    expect(() => directoryChangeOf(envelope('user.created', { id: 'x'.repeat(101), updated_at }))).toThrow(ZodError);
  });
});
