import { describe, expect, it } from '@jest/globals';
import type { JobParameters } from 'agenda';
import { dedupeKeyOf } from '../../../src/queue/mysql-backend/dedupe-key.js';
import { newJobId } from '../../../src/queue/mysql-backend/job-id.js';
import { newRow } from '../../../src/queue/mysql-backend/job-row.js';
import { jsonContains, jsonContainsText } from '../../../src/queue/mysql-backend/json-contains.js';
import { fromSqlDate, toSqlDate } from '../../../src/queue/mysql-backend/sql-dates.js';
import { planSingle, planUnique } from '../../../src/queue/mysql-backend/upsert-plan.js';

const base: JobParameters = { name: 'j', priority: 0, nextRunAt: null, type: 'normal', data: {} };

describe('jsonContains (PostgreSQL @> semantics)', () => {
  it('matches objects by contained keys, recursively', () => {
    expect(jsonContains({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true);
    expect(jsonContains({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonContains({ a: '1' }, { a: 1 })).toBe(false);
    expect(jsonContains({ a: null }, { a: null })).toBe(true);
    expect(jsonContains({}, { a: undefined })).toBe(false);
  });

  it('matches arrays by contained elements in any order', () => {
    expect(jsonContains({ tags: ['x', 'y', 'z'] }, { tags: ['z', 'x'] })).toBe(true);
    expect(jsonContains({ tags: ['x'] }, { tags: ['x', 'q'] })).toBe(false);
    expect(jsonContains([{ id: 1, v: 2 }], [{ id: 1 }])).toBe(true);
    expect(jsonContains({ tags: 'x' }, { tags: ['x'] })).toBe(false);
  });

  it('never matches NULL or malformed text in SQL form', () => {
    expect(jsonContainsText('{"a":1}', '{"a":1}')).toBe(1);
    expect(jsonContainsText(null, '{"a":1}')).toBe(0);
    expect(jsonContainsText('{not json', '{}')).toBe(0);
  });
});

describe('dedupeKeyOf', () => {
  it('gives single jobs one identity per name, and plain jobs none', () => {
    expect(dedupeKeyOf({ ...base, type: 'single' })).toBe(dedupeKeyOf({ ...base, type: 'single', data: { other: 1 } }));
    expect(dedupeKeyOf({ ...base, type: 'single' })).not.toBe(dedupeKeyOf({ ...base, name: 'k', type: 'single' }));
    expect(dedupeKeyOf(base)).toBeNull();
    expect(dedupeKeyOf({ ...base, unique: {} })).toBeNull();
  });

  it('compares unique values as text, ignores key order, and separates names and fields', () => {
    const key = dedupeKeyOf({ ...base, unique: { 'data.a': 1, 'data.b': 'x' } });
    expect(dedupeKeyOf({ ...base, unique: { 'data.b': 'x', 'data.a': '1' } })).toBe(key);
    expect(dedupeKeyOf({ ...base, unique: { 'data.a': 2, 'data.b': 'x' } })).not.toBe(key);
    expect(dedupeKeyOf({ ...base, name: 'other', unique: { 'data.a': 1, 'data.b': 'x' } })).not.toBe(key);
    expect(dedupeKeyOf({ ...base, unique: { 'data.ab': 1, 'data.b': 'x' } })).not.toBe(key);
    expect(dedupeKeyOf({ ...base, unique: { 'data.o': { y: 1, x: 2 } } })).toBe(dedupeKeyOf({ ...base, unique: { 'data.o': { x: 2, y: 1 } } }));
  });
});

describe('upsert plans', () => {
  const now = new Date('2030-01-01T00:00:00.000Z');
  const existing = newRow('id-1', { name: 'j', next_run_at: '2030-01-01 00:05:00.000', debounce_started_at: '2029-12-31 23:59:59.000' });

  it('single: inserts when new; keeps a scheduled run when asked to run now; moves it when asked for later', () => {
    expect(planSingle({ ...base, type: 'single' }, undefined, now).kind).toBe('insert');
    const dueNow = planSingle({ ...base, type: 'single', nextRunAt: now }, existing, now);
    expect(dueNow).toMatchObject({ kind: 'update', values: { next_run_at: '2030-01-01 00:05:00.000' } });
    expect(dueNow.kind === 'update' && 'name' in dueNow.values).toBe(false);
    const later = planSingle({ ...base, type: 'single', nextRunAt: new Date('2030-01-01T01:00:00Z') }, existing, now);
    expect(later).toMatchObject({ kind: 'update', values: { next_run_at: '2030-01-01 01:00:00.000' } });
  });

  it('unique: insertOnly keeps the existing row; a plain unique save replaces the definition', () => {
    expect(planUnique({ ...base, unique: { a: 1 }, uniqueOpts: { insertOnly: true } }, existing, now)).toEqual({ kind: 'keep' });
    expect(planUnique({ ...base, unique: { a: 1 }, nextRunAt: now, data: { v: 2 } }, existing, now)).toMatchObject({
      kind: 'update',
      values: { next_run_at: '2030-01-01 00:00:00.000', data: '{"v":2}', debounce_started_at: null },
    });
  });

  it('trailing debounce: a new job waits the delay; a repeat save pushes it back from now and keeps the window start', () => {
    const debounce = { delay: 1_000 };
    expect(planUnique({ ...base, unique: { a: 1 }, uniqueOpts: { debounce } }, undefined, now)).toMatchObject({
      kind: 'insert',
      values: { next_run_at: '2030-01-01 00:00:01.000', debounce_started_at: '2030-01-01 00:00:00.000' },
    });
    expect(planUnique({ ...base, unique: { a: 1 }, uniqueOpts: { debounce } }, existing, now)).toMatchObject({
      kind: 'update',
      values: { next_run_at: '2030-01-01 00:00:01.000', debounce_started_at: '2029-12-31 23:59:59.000' },
    });
  });

  it('maxWait forces the run now and starts a new window; leading keeps the first run time', () => {
    const forced = planUnique({ ...base, unique: { a: 1 }, uniqueOpts: { debounce: { delay: 60_000, maxWait: 1_000 } } }, existing, now);
    expect(forced).toMatchObject({ kind: 'update', values: { next_run_at: '2030-01-01 00:00:00.000', debounce_started_at: null } });
    const leading = planUnique({ ...base, unique: { a: 1 }, nextRunAt: now, uniqueOpts: { debounce: { delay: 1_000, strategy: 'leading' } } }, existing, now);
    expect(leading).toMatchObject({ kind: 'update', values: { next_run_at: '2030-01-01 00:05:00.000' } });
  });
});

describe('dates and ids', () => {
  it('round-trips dates through UTC DATETIME(3) text, whatever the local zone', () => {
    const date = new Date('2031-07-08T09:10:11.012Z');
    expect(toSqlDate(date)).toBe('2031-07-08 09:10:11.012');
    expect(fromSqlDate(toSqlDate(date))).toEqual(date);
    expect(toSqlDate(null)).toBeNull();
    expect(fromSqlDate(null)).toBeUndefined();
    expect(() => toSqlDate('not a date')).toThrow(/Invalid date/);
    expect(() => fromSqlDate(12)).toThrow(/Unexpected number/);
  });

  it('makes version-7 UUIDs that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 500 }, () => newJobId(1_800_000_000_000));
    expect(new Set(ids).size).toBe(500);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
