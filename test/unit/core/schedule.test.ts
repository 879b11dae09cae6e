import { describe, expect, it } from '@jest/globals';
import { canonicalTimeZone, cronProblem, normalizeCron } from '../../../src/core/schedule.js';

const FROM = new Date('2025-03-01T00:00:00Z');

describe('cronProblem', () => {
  it.each(['*/5 * * * *', '0 6 * * 1-5', '30 7 1,15 * *', '0 9 * * MON-FRI', '0 0 * jan,feb *', '0 9 L * *', '0 9 * * 1#2', '0 9 * * 5L', '0 9 ? * 1', '  0  6 * * *  '])(
    'accepts %j',
    (expression) => {
      expect(cronProblem(expression, FROM)).toBeUndefined();
    },
  );

  it.each([
    ['', 'must have 5 fields (minute hour day-of-month month day-of-week), got 0'],
    ['* * * *', 'must have 5 fields (minute hour day-of-month month day-of-week), got 4'],
    ['0 0 6 * * *', 'must have 5 fields (minute hour day-of-month month day-of-week), got 6'],
    ['@daily', 'must have 5 fields (minute hour day-of-month month day-of-week), got 1'],
    ['H 6 * * *', 'the minute field "H" is not a cron field'],
    ['0 H/2 * * *', 'the hour field "H/2" is not a cron field'],
    ['0 6 * * 1;2', 'the day of week field "1;2" is not a cron field'],
    ['? 6 * * *', '"?" is allowed only in the day-of-month and day-of-week fields, not in the minute field'],
  ])('refuses %j: %s', (expression, problem) => {
    expect(cronProblem(expression, FROM)).toBe(problem);
  });

  it.each([
    ['60 * * * *', 'expected range 0-59'],
    ['0 24 * * *', 'expected range 0-23'],
    ['0 0 0 * *', 'expected range 1-31'],
    ['0 0 * 13 *', 'expected range 1-12'],
    ['0 0 * * 8', 'expected range 0-7'],
    ['5-1 * * * *', 'Invalid range'],
    ['*/0 * * * *', 'cannot repeat at every 0 time'],
    ['0 0 30 2 *', 'Invalid explicit day of month definition'],
    ['0 0 * foo *', 'cannot resolve alias "foo"'],
  ])('refuses %j as the parser Agenda uses reads it (%s)', (expression, problem) => {
    expect(cronProblem(expression, FROM)).toMatch(new RegExp(`^is not a valid cron expression: .*${problem.replace(/[()]/g, '\\$&')}`));
  });

  it('normalizes the spacing it accepts', () => {
    expect(normalizeCron('  0\t6  * *   1-5 ')).toBe('0 6 * * 1-5');
  });
});

describe('canonicalTimeZone', () => {
  it.each([
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['America/Argentina/Buenos_Aires', 'America/Buenos_Aires'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
  ])('names %j as %j', (name, canonical) => {
    expect(canonicalTimeZone(name)).toBe(canonical);
  });

  it.each(['Mars/Olympus', 'Berlin', '+02:00', 'UTC+2', '', 'Europe/Berlin ', `Europe/${'x'.repeat(80)}`])('knows no zone %j', (name) => {
    expect(canonicalTimeZone(name)).toBeUndefined();
  });
});
