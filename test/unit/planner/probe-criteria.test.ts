import { describe, expect, it } from '@jest/globals';
import { matchCriterion, mentionsProbe } from '../../../src/planner/probe-criteria.js';

describe('matchCriterion', () => {
  it.each<[string, string[], string]>([
    ['verify the order through the probe', ['order_created'], 'order_created'],
    ['the order exists', ['order_created'], 'order_created'],
    ['the order exists', ['orderExists'], 'orderExists'],
    ['the order was placed', ['order-created'], 'order-created'],
    ['orders are saved', ['order_created'], 'order_created'],
    ['check the evidence', ['order_created'], 'order_created'],
    ['verify the refund in the backend', ['order_created', 'refund_issued'], 'refund_issued'],
    ['the order total is right in the database', ['order_created', 'order_total_correct'], 'order_total_correct'],
    ['the order total is correct', ['order_created', 'order_total_correct'], 'order_total_correct'],
    ['the payment was captured and the order exists', ['order_created', 'order_payment_captured'], 'order_payment_captured'],
  ])('%j with %j → %s', (clause, criteria, key) => {
    expect(matchCriterion(clause, criteria)).toEqual({ kind: 'criterion', key });
  });

  it.each<[string, string[]]>([
    ['check that the total shows $90', ['order_created']],
    ['make sure the order page says "Order confirmed"', ['order_created']],
    ['the order exists', []],
    ['the order is shown', ['order_created']],
  ])('%j with %j is a plain assertion', (clause, criteria) => {
    expect(matchCriterion(clause, criteria)).toEqual({ kind: 'none' });
  });

  it('asks when the probe is mentioned and nothing or several fit', () => {
    expect(matchCriterion('verify it through the probe', [])).toMatchObject({ kind: 'question', candidates: [] });
    expect(matchCriterion('verify it through the probe', ['a_b', 'c_d'])).toMatchObject({
      kind: 'question',
      question: 'Which evidence probe should verify "verify it through the probe": a_b or c_d?',
      candidates: ['a_b', 'c_d'],
    });
    expect(matchCriterion('the order exists', ['order_created', 'order_placed'])).toMatchObject({ kind: 'question', candidates: ['order_created', 'order_placed'] });
  });

  it.each(['through the probe', 'check the evidence', 'in the backend', 'server-side', 'in the database', 'via the probes'])('%j mentions the probe', (clause) => {
    expect(mentionsProbe(clause)).toBe(true);
  });
});
