import { describe, expect, it } from '@jest/globals';
import { answerLines, parseCommand, plainText } from '../../../bot/conversation/commands.js';
import { readAnswerLines } from '../../../src/core/clarification-answers.js';

/** A thread reply read as the bot reads it: its lines, then the numbered-answer rule. */
const parseAnswers = (raw: string, questionCount: number) => {
  const reading = readAnswerLines(answerLines(raw), questionCount);
  return 'problem' in reading ? { problem: reading.problem } : reading;
};

describe('plainText', () => {
  it("drops the bot's mention and unwraps Slack's link markup", () => {
    expect(plainText('<@U0BOT> on <https://staging.example.com|staging.example.com>: sign in as <mailto:demo@acme.test|demo@acme.test>')).toBe(
      'on https://staging.example.com: sign in as demo@acme.test',
    );
    expect(plainText('<@U0BOT|qa>   check   that &lt;h1&gt; says &amp;')).toBe('check that <h1> says &');
  });
});

describe('parseCommand', () => {
  const cases: [string, ReturnType<typeof parseCommand>][] = [
    ['<@U0BOT>', { kind: 'help' }],
    ['<@U0BOT> help', { kind: 'help' }],
    ['?', { kind: 'help' }],
    ['<@U0BOT> checks', { kind: 'checks' }],
    ['status 6f1c2a9e-0000-4000-8000-000000000001', { kind: 'status', jobId: '6f1c2a9e-0000-4000-8000-000000000001' }],
    ['<@U0BOT> cancel abc', { kind: 'cancel', jobId: 'abc' }],
    ['status', { kind: 'invalid', message: 'Say which job: `status <job id>`.' }],
    ['replay Sign in and see the invoices', { kind: 'replay', check: 'Sign in and see the invoices' }],
    ['rerun 6f1c2a9e-0000-4000-8000-000000000001', { kind: 'replay', check: '6f1c2a9e-0000-4000-8000-000000000001' }],
    ['use acme/shop', { kind: 'use', repository: 'acme/shop', baseUrl: null }],
    ['use acme/shop at <https://staging.acme.test>', { kind: 'use', repository: 'acme/shop', baseUrl: 'https://staging.acme.test' }],
    ['not a bug: the banner is expected on Mondays', { kind: 'dispute', reason: 'the banner is expected on Mondays' }],
    ['Not a bug - flaky staging data', { kind: 'dispute', reason: 'flaky staging data' }],
    ['<@U0BOT> on <https://staging.example.com>: open the pricing page', { kind: 'task', task: 'open the pricing page', baseUrl: 'https://staging.example.com' }],
    ['open the pricing page and check the heading', { kind: 'task', task: 'open the pricing page and check the heading', baseUrl: null }],
    // Words that start commands, used in an ordinary task, stay a task.
    ['checks the pricing page shows three plans', { kind: 'task', task: 'checks the pricing page shows three plans', baseUrl: null }],
    ['status page says all systems operational', { kind: 'task', task: 'status page says all systems operational', baseUrl: null }],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected);
  });

  it('refuses malformed arguments with a message that shows the right form', () => {
    expect(parseCommand('use not-a-repo')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('use <owner>/<name>') });
    expect(parseCommand('use acme/shop at ftp://x')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('not an http(s) address') });
    expect(parseCommand('on javascript:alert(1): do it')).toMatchObject({ kind: 'invalid' });
  });

  it('refuses addresses that carry a user name or password, without repeating the secret', () => {
    const cases = [
      'on https://ada:s3cret@staging.acme.test: open the pricing page',
      '<@U0BOT> on <https://ada:s3cret@staging.acme.test/shop|staging>: open the pricing page',
      'on http://ada@staging.acme.test:8080: open the pricing page',
      'use acme/shop at https://ada:s3cret@staging.acme.test',
      'use acme/shop at <https://:s3cret@staging.acme.test/>',
    ];
    for (const text of cases) {
      const command = parseCommand(text);
      expect(command).toMatchObject({ kind: 'invalid', message: expect.stringContaining('carries a user name or password') });
      const { message } = command as { message: string };
      expect(message).toMatch(/`https?:\/\/\*\*\*@staging\.acme\.test(:8080)?`/);
      expect(message).not.toMatch(/s3cret|ada/);
    }
    // An @ in the path or the query is no credential.
    expect(parseCommand('on https://staging.acme.test/@team?by=ada@acme.test: open it')).toMatchObject({ kind: 'task', baseUrl: 'https://staging.acme.test/@team?by=ada@acme.test' });
    expect(parseCommand('not a bug:')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('not a bug: <reason>') });
    expect(parseCommand('replay')).toMatchObject({ kind: 'invalid' });
    expect(parseCommand('x'.repeat(4_001))).toMatchObject({ kind: 'invalid', message: expect.stringContaining('4000') });
  });
});

describe('answers in a thread reply (answerLines, then readAnswerLines)', () => {
  it('takes numbered lines in any order', () => {
    expect(parseAnswers('2) the Pro plan\n1. yes', 2)).toEqual({ answers: ['yes', 'the Pro plan'] });
  });
  it('takes one answer per line in order', () => {
    expect(parseAnswers('yes\n\nthe Pro plan\n', 2)).toEqual({ answers: ['yes', 'the Pro plan'] });
  });
  it('says what is missing or wrong', () => {
    expect(parseAnswers('1. yes', 3)).toEqual({ problem: 'Still missing: the answers to questions 2, 3.' });
    expect(parseAnswers('1. yes\n4. no', 2)).toEqual({ problem: 'There is no question 4; the questions are numbered 1 to 2.' });
    expect(parseAnswers('1. yes\n1. no', 2)).toEqual({ problem: 'Question 1 is answered twice.' });
    expect(parseAnswers('yes', 2)).toMatchObject({ problem: expect.stringContaining('are 2 questions and this reply has 1 answer line') });
    expect(parseAnswers('', 1)).toMatchObject({ problem: expect.stringContaining('has 0 answer lines') });
  });
  it("ignores the bot's mention and Slack's markup in answers", () => {
    expect(parseAnswers('<@U0BOT> 1. <mailto:demo@acme.test|demo@acme.test>', 1)).toEqual({ answers: ['demo@acme.test'] });
  });
});
