import { describe, expect, it } from '@jest/globals';
import { ClaimProbe, claimableNames, probeStatement, type ProbeAsk } from '../../../src/queue/mysql-backend/claim-probe.js';

const ask = (jobName: string): ProbeAsk => ({ jobName, nextScanAt: '2030-01-01 00:00:00.250', lockDeadline: '2029-12-31 23:50:00.000' });

/** A probe whose reads are recorded and answered from `due`, or fail with `failure`. */
function probeOver(due: readonly string[], failure?: Error) {
  const reads: string[][] = [];
  const probe = new ClaimProbe(async (asks) => {
    reads.push(asks.map((one) => one.jobName));
    if (failure) throw failure;
    return new Set(asks.map((one) => one.jobName).filter((name) => due.includes(name)));
  });
  return { probe, reads };
}

describe('ClaimProbe', () => {
  it('asks once for every kind a scan claims in the same turn, and answers each from that one read', async () => {
    const { probe, reads } = probeOver(['run', 'reply']);
    const answers = await Promise.all(['run', 'reply', 'progress', 'schedule'].map((name) => probe.claimable(ask(name))));
    expect(answers).toEqual([true, true, false, false]);
    expect(reads).toEqual([['run', 'reply', 'progress', 'schedule']]);
  });

  it('lets a lone claim through without a read: the claim itself asks as much', async () => {
    const { probe, reads } = probeOver([]);
    expect(await probe.claimable(ask('run'))).toBe(true);
    expect(reads).toEqual([]);
  });

  it('starts a new batch for claims asked after the read was sent', async () => {
    const { probe, reads } = probeOver(['b']);
    const first = Promise.all([probe.claimable(ask('a')), probe.claimable(ask('b'))]);
    await Promise.resolve();
    const second = Promise.all([probe.claimable(ask('b')), probe.claimable(ask('c'))]);
    expect([await first, await second]).toEqual([[false, true], [true, false]]);
    expect(reads).toEqual([['a', 'b'], ['b', 'c']]);
  });

  it('fails every claim of the batch when the read fails, and the next scan reads again', async () => {
    const { probe, reads } = probeOver([], new Error('connection lost'));
    const results = await Promise.allSettled([probe.claimable(ask('a')), probe.claimable(ask('b'))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    await Promise.allSettled([probe.claimable(ask('a')), probe.claimable(ask('b'))]);
    expect(reads).toHaveLength(2);
  });
});

describe('probeStatement', () => {
  it('is one SELECT of an EXISTS pair per kind, with the claim windows as parameters, and no derived table', () => {
    const statement = probeStatement('agenda_jobs', [ask('a'), ask('b')]);
    expect(statement.sql.startsWith('SELECT (EXISTS (SELECT 1 FROM `agenda_jobs` WHERE name = ? AND disabled = 0 AND locked_at IS NULL AND next_run_at <= ?)')).toBe(true);
    expect(statement.sql.match(/ AS k\d/g)).toEqual([' AS k0', ' AS k1']);
    expect(statement.sql).not.toMatch(/ FROM \(/);
    expect(statement.params).toEqual(['a', ask('a').nextScanAt, 'a', ask('a').lockDeadline, 'b', ask('b').nextScanAt, 'b', ask('b').lockDeadline]);
  });

  it('reads the answer row by position, as 1 or 0 from either driver', () => {
    expect([...claimableNames([ask('a'), ask('b'), ask('c')], { k0: 1, k1: 0, k2: '1' })]).toEqual(['a', 'c']);
    expect([...claimableNames([ask('a')], undefined)]).toEqual([]);
  });
});
