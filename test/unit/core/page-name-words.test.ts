/**
 * Issue 25: a page named in the task's words, said by the app in its own: "the transfer confirmation page" is
 * /payments/transfer-done headed "Your transfer is confirmed". Each word of the name must be a word of the address's
 * path or of the title or a heading; the page's other text does not count (a "Back to transfers" button elsewhere).
 */
import { describe, expect, it } from '@jest/globals';
import { pageNamedByWords } from '../../../src/core/page-name-words.js';

describe('pageNamedByWords', () => {
  it('finds each word of the name in the path or the headings, plurals alike', () => {
    expect(pageNamedByWords('transfer confirmation', 'https://bank.test/payments/transfer-done', ['Online Bank', 'Confirmation of your payment'])).toBe(true);
    expect(pageNamedByWords('the statements overview page', 'https://bank.test/statement/overview?month=3', ['Online Bank'])).toBe(true);
    expect(pageNamedByWords('account settings', 'https://bank.test/app', ['AccountSettings'])).toBe(true);
  });

  it('is not that page when a word is missing, or said only in the query, and one word is never enough', () => {
    expect(pageNamedByWords('transfer confirmation', 'https://bank.test/payments/transfer-review', ['Review your transfer'])).toBe(false);
    expect(pageNamedByWords('transfer confirmation', 'https://bank.test/payments?next=confirmation', ['Transfer'])).toBe(false);
    expect(pageNamedByWords('the payments page', 'https://bank.test/payments', ['Payments'])).toBe(false);
  });
});
