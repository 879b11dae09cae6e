import { expect, it } from '@jest/globals';
import type { InstallationChange } from '../../../src/core/codehost-installation.js';
import { createInstallationRecords, type InstallationRecords } from '../../../src/repos/installation-records.js';
import { ReportedInstallationRepository } from '../../../src/store/entities/reported-installation-repository.entity.js';
import { ReportedInstallation } from '../../../src/store/entities/reported-installation.entity.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const change = (status: InstallationChange['status'], reportedAt: string, added: string[] = [], removed: string[] = []): InstallationChange => ({
  installationId: '31337',
  account: { login: 'acme', type: 'Organization' },
  repositorySelection: 'selected',
  status,
  reportedAt: new Date(reportedAt),
  added: added.map((name, index) => ({ repositoryId: String(100 + index), fullName: `acme/${name}`, private: true })),
  removed: removed.map((name, index) => ({ repositoryId: String(100 + index), fullName: `acme/${name}`, private: true })),
});

forEachDialect('installation records', (dialect) => {
  const store = useTestStore(dialect);
  // One per process, as the composition root makes it.
  let made: InstallationRecords | undefined;
  const records = () => (made ??= createInstallationRecords({ dataSource: store(), provider: 'codehost' }));
  const stored = () => store().getRepository(ReportedInstallation).findOneByOrFail({ providerInstallationId: '31337' });

  it('converges on the deletion when created and deleted are applied many times at once, in any order', async () => {
    const created = change('active', '2026-02-01T10:00:00Z', ['shop']);
    const deleted = change('deleted', '2026-02-01T10:00:00Z');

    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, index) => records().apply(index % 2 === 0 ? created : deleted)));

    expect(await stored()).toMatchObject({ status: 'deleted' });
    expect(await store().getRepository(ReportedInstallationRepository).countBy({ present: true })).toBe(0);
    // A created applied before the deletion saw it active; one after it was told it changed nothing.
    expect(outcomes.filter((_, index) => index % 2 === 0).every((outcome) => outcome.status === 'active' || outcome.tombstoned)).toBe(true);
  });

  it('applies a change as recent as the stored one (a later delivery of the same second wins) but not an older one', async () => {
    await records().apply(change('active', '2026-02-01T10:00:00Z', ['shop']));
    await records().apply(change(undefined, '2026-02-01T11:00:00Z', [], ['shop']));
    await records().apply(change(undefined, '2026-02-01T10:30:00Z', ['shop']));
    expect(await store().getRepository(ReportedInstallationRepository).findOneByOrFail({ repositoryId: '100' })).toMatchObject({ present: false, reportedAt: new Date('2026-02-01T11:00:00Z') });

    await records().apply(change('suspended', '2026-02-01T12:00:00Z'));
    await records().apply(change('active', '2026-02-01T12:00:00Z'));
    expect(await stored()).toMatchObject({ status: 'active' });
    await records().apply(change('suspended', '2026-02-01T11:59:59Z'));
    expect(await stored()).toMatchObject({ status: 'active' });
  });

  it('answers a late event after the deletion as tombstoned and changes nothing', async () => {
    await records().apply(change('deleted', '2026-02-01T10:00:00Z'));

    expect(await records().apply(change('active', '2026-03-01T10:00:00Z', ['shop']))).toEqual({ status: 'deleted', tombstoned: true });
    expect(await records().apply(change(undefined, '2026-03-01T10:00:00Z', ['shop']))).toEqual({ status: 'deleted', tombstoned: true });
    expect(await store().getRepository(ReportedInstallationRepository).count()).toBe(0);
  });
});
