/**
 * Issue 25: pages people name by how they got there. A bank app's run, its addresses recorded after each step as
 * run-plan.ts records them: "back on the accounts list" is the page before the one just left; "its statement page
 * opens" is any page but the one the last action started on. Only the page's address is read, so a stand-in with
 * `url()` is the page here.
 */
import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright';
import { reachedAddress, recordPageVisit, startPageHistory } from '../../../src/browser/page-history.js';
import type { PlanStep } from '../../../src/core/plan.js';

const BANK = 'https://bank.test';
const click: PlanStep = { action: 'click', description: 'Click', target: { by: 'role', role: 'link', name: 'Savings', exact: false } };
const look: PlanStep = { action: 'expectText', description: 'Expect', text: 'Savings' };

function run(addresses: Array<[string, PlanStep]>): { page: Page; at: (url: string) => void } {
  let current = 'about:blank';
  const page = { url: () => current } as unknown as Page;
  startPageHistory(page);
  for (const [url, step] of addresses) {
    current = `${BANK}${url}`;
    recordPageVisit(page, step);
  }
  return { page, at: (url) => (current = `${BANK}${url}`) };
}

describe('reachedAddress', () => {
  it('"back" is the page before the one just left, whether or not the move back was recorded yet', () => {
    const { page } = run([[ '/login', click ], [ '/accounts', click ], [ '/accounts/savings', click ], [ '/accounts', click ]]);
    expect(reachedAddress(page, 'back')).toEqual({ is: `${BANK}/accounts` });
    const early = run([[ '/accounts', click ], [ '/accounts/savings', click ]]);
    early.at('/accounts');
    expect(reachedAddress(early.page, 'back')).toEqual({ is: `${BANK}/accounts` });
    // "Back" did nothing: the page is still on the statement, and "back" wants the page before the accounts list.
    const stuck = run([[ '/login', click ], [ '/accounts', click ], [ '/accounts/savings', click ], [ '/accounts/savings', click ]]);
    expect(reachedAddress(stuck.page, 'back')).toEqual({ is: `${BANK}/login` });
  });

  it('"new" is any page but the one the last action started from; expectations in between change nothing', () => {
    const { page } = run([[ '/accounts', click ], [ '/accounts', look ], [ '/accounts/savings', click ], [ '/accounts/savings', look ]]);
    expect(reachedAddress(page, 'new')).toEqual({ isNot: `${BANK}/accounts` });
  });

  it('says nothing for a page with no history', () => {
    const page = { url: () => `${BANK}/` } as unknown as Page;
    expect(reachedAddress(page, 'back')).toBeUndefined();
  });
});
