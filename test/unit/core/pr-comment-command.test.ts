import { describe, expect, it } from '@jest/globals';
import { readAnswerLines } from '../../../src/core/clarification-answers.js';
import { quoteUntrusted } from '../../../src/core/markdown-quote.js';
import { addressedText, cleanCommentText, MAX_COMMENT_TASK_LENGTH, parsePullRequestComment, type PullRequestCommand } from '../../../src/core/pr-comment-command.js';

const BOT = 'qa-bot';
const CHECK_ID = '6f1c2a9e-0000-4000-8000-000000000001';

describe('parsePullRequestComment', () => {
  const cases: [string, PullRequestCommand | null][] = [
    // Not addressed to the service.
    ['Looks good to me', null],
    ['Please run /qa check the pricing page', null],
    ['> /qa check the pricing page\n\nwhy?', null],
    ['/qatest check the pricing page', null],
    ['@qa-botanist check the pricing page', null],
    ['', null],
    // Help, and one word that is no command.
    ['/qa', { kind: 'help' }],
    ['  /QA help', { kind: 'help' }],
    ['/qa ?', { kind: 'help' }],
    ['@qa-bot', { kind: 'help' }],
    ['/qa status', { kind: 'help' }],
    // Tasks, by command or mention (any case, `[bot]` suffix, a colon after it).
    ['/qa check that the pricing page lists three plans', { kind: 'task', task: 'check that the pricing page lists three plans' }],
    ['@QA-Bot check that the pricing page lists three plans', { kind: 'task', task: 'check that the pricing page lists three plans' }],
    ['@qa-bot[bot]: sign in and open the invoices', { kind: 'task', task: 'sign in and open the invoices' }],
    ['/qa\r\nsign in\r\n  and open the invoices  ', { kind: 'task', task: 'sign in and open the invoices' }],
    // Words that start commands, used in a task, stay a task.
    ['/qa answering the contact form sends a mail', { kind: 'task', task: 'answering the contact form sends a mail' }],
    ['/qa replayed orders show up twice', { kind: 'task', task: 'replayed orders show up twice' }],
    // Answers: numbered lines, a single answer on the same line, `answers:`.
    ['/qa answer\n1. yes\n2) the demo user', { kind: 'answer', lines: ['1. yes', '2) the demo user'] }],
    ['/qa answer yes, the demo user', { kind: 'answer', lines: ['yes, the demo user'] }],
    ['/qa answers: 1. yes\n\n2: no  ', { kind: 'answer', lines: ['1. yes', '2: no'] }],
    ['/qa answer', { kind: 'invalid', message: expect.stringContaining('Give the answers after `/qa answer`') as unknown as string }],
    // Replay and rerun.
    [`/qa replay ${CHECK_ID}`, { kind: 'replay', check: CHECK_ID }],
    ['/qa replay   sign in  and see the invoices', { kind: 'replay', check: 'sign in and see the invoices' }],
    ['/qa replay', { kind: 'invalid', message: 'Say which check: `/qa replay <check id or words of its task>`.' }],
    ['/qa rerun', { kind: 'rerun' }],
    ['/qa RERUN  ', { kind: 'rerun' }],
    ['/qa rerun home page', { kind: 'replay', check: 'home page' }],
  ];
  it.each(cases)('%j', (body, expected) => {
    expect(parsePullRequestComment(body, BOT)).toEqual(expected);
  });

  it('knows no mention when no bot name is configured', () => {
    expect(parsePullRequestComment('@qa-bot check the pricing page', undefined)).toBeNull();
    expect(parsePullRequestComment('/qa check the pricing page', undefined)).toEqual({ kind: 'task', task: 'check the pricing page' });
  });

  it('escapes the bot name: its characters are not a pattern', () => {
    expect(parsePullRequestComment('@qaXbot check the pricing page', 'qa.bot')).toBeNull();
    expect(parsePullRequestComment('@qa.bot check the pricing page', 'qa.bot')).toEqual({ kind: 'task', task: 'check the pricing page' });
  });

  it('bounds what it takes: a task over the limit, a long check reference, too many or too long answers', () => {
    const long = `/qa ${'word '.repeat(MAX_COMMENT_TASK_LENGTH)}`;
    expect(parsePullRequestComment(long, BOT)).toEqual({ kind: 'invalid', message: `That task is ${MAX_COMMENT_TASK_LENGTH * 5 - 1} characters long; the most is ${MAX_COMMENT_TASK_LENGTH}.` });
    expect(parsePullRequestComment(`/qa replay ${'x'.repeat(201)}`, BOT)).toMatchObject({ kind: 'invalid', message: expect.stringContaining('at most 200 characters') });
    expect(parsePullRequestComment(`/qa answer\n${Array.from({ length: 21 }, (_u, i) => `${i + 1}. yes`).join('\n')}`, BOT)).toMatchObject({ kind: 'invalid', message: expect.stringContaining('21 answer lines') });
    expect(parsePullRequestComment(`/qa answer ${'y'.repeat(2_001)}`, BOT)).toMatchObject({ kind: 'invalid', message: expect.stringContaining('2001 characters') });
  });

  it('reads malformed text: lone surrogates become U+FFFD, controls and bidi overrides go, before the address is looked for', () => {
    expect(parsePullRequestComment('\u0000/qa\u0007 check the \ud800pricing\u202e page\u0085', BOT)).toEqual({ kind: 'task', task: 'check the \ufffdpricing page' });
    expect(cleanCommentText('a\r\nb\rc\td')).toBe('a\nb\nc\td');
    expect(addressedText('\u200b/qa check', BOT)).toBeNull();
  });
});

describe('readAnswerLines', () => {
  const cases: [string[], number, ReturnType<typeof readAnswerLines>][] = [
    [['1. yes', '2) the demo user'], 2, { answers: ['yes', 'the demo user'] }],
    [['2: the demo user', '1 - yes'], 2, { answers: ['yes', 'the demo user'] }],
    [['yes'], 1, { answers: ['yes'] }],
    [['yes', '', 'the demo user'], 2, { answers: ['yes', 'the demo user'] }],
    [['yes'], 2, { problem: 'There are 2 questions and this reply has 1 answer line. Answer with one line per question, or number them (`1. …`).', fault: 'count' }],
    [['1. yes'], 2, { problem: 'Still missing: the answer to question 2.', fault: 'count' }],
    [['1. yes', '3. no'], 2, { problem: 'There is no question 3; the questions are numbered 1 to 2.', fault: 'malformed' }],
    [['1. yes', '1. no'], 2, { problem: 'Question 1 is answered twice.', fault: 'malformed' }],
    [['1. yes', '2.'], 2, { problem: 'The answer to question 2 is empty.', fault: 'malformed' }],
  ];
  it.each(cases)('%j for %i question(s)', (lines, count, expected) => {
    expect(readAnswerLines(lines, count)).toEqual(expected);
  });
});

describe('quoteUntrusted', () => {
  it.each([
    ['@everyone look', '`@everyone look`'],
    ['<img src=x onerror=alert(1)> <!-- hidden -->', '`<img src=x onerror=alert(1)> <!-- hidden -->`'],
    ['break `out` of the span', "`break 'out' of the span`"],
    ['two\nlines\r\n\n# heading', '`two lines # heading`'],
    ['   ', '(nothing)'],
  ])('%j is one inert code span', (text, quoted) => {
    expect(quoteUntrusted(text)).toBe(quoted);
  });

  it('bounds by code point, never splitting a surrogate pair', () => {
    const quoted = quoteUntrusted('😀'.repeat(100), 10);
    expect(quoted).toBe(`\`${'😀'.repeat(9)}…\``);
    // Every high surrogate is followed by its low half.
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(quoted)).toBe(false);
  });
});
