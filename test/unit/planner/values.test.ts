import { describe, expect, it } from '@jest/globals';
import { missingValueQuestion, nameInAnswer, readValue, type ValueReading } from '../../../src/planner/values.js';

const NAMES = ['demoEmail', 'demoPassword', 'coupon_code', 'DEMO-PIN', 'card.number'];
const literal = (text: string): ValueReading => ({ kind: 'value', value: { kind: 'literal', text } });
const named = (name: string): ValueReading => ({ kind: 'value', value: { kind: 'testValue', name } });

describe('readValue', () => {
  it.each<[string, ValueReading]>([
    ['SAVE10', literal('SAVE10')],
    ['"SAVE10"', literal('SAVE10')],
    ["'the demo password'", literal('the demo password')],
    ['demo@example.test', literal('demo@example.test')],
    ['https://shop.example.test', literal('https://shop.example.test')],
    ['42', literal('42')],
    ['$9.99', literal('$9.99')],
    ['Blue', literal('Blue')],
    ['Ada Lovelace', literal('Ada Lovelace')],
    ['-12.5', literal('-12.5')],
    ['15%', literal('15%')],
    ['2024-05-01', literal('2024-05-01')],
    ['2024-05-01T09:30', literal('2024-05-01T09:30')],
    ['05/01/2024', literal('05/01/2024')],
    ['1st of May 2024', literal('1st of May 2024')],
    ['Sept 3, 2025', literal('Sept 3, 2025')],
    ['9:30 pm', literal('9:30 pm')],
    ['+44 20 7946 0958', literal('+44 20 7946 0958')],
    ['(555) 010-0199', literal('(555) 010-0199')],
    ['www.acme.test', literal('www.acme.test')],
    ['the demoPassword', named('demoPassword')],
    ['DEMOPASSWORD', named('demoPassword')],
    ['demoPassword', named('demoPassword')],
    ['the demo password', named('demoPassword')],
    ['the demo password.', named('demoPassword')],
    ['the Demo Password', named('demoPassword')],
    ['our demo pwd', named('demoPassword')],
    ['the demo e-mail', named('demoEmail')],
    ['the demo email address', named('demoEmail')],
    ['the coupon code', named('coupon_code')],
    ['the coupon', named('coupon_code')],
    ['the test value coupon_code', named('coupon_code')],
    ['the demo pin', named('DEMO-PIN')],
    ['the card number', named('card.number')],
  ])('%j → %j', (phrase, reading) => {
    expect(readValue(phrase, NAMES)).toEqual(reading);
  });

  it.each(['the admin password', 'my API token', 'the gift card code', 'the secret', 'the adminPassword', 'the api_token'])('%j names a stored value that is not configured', (phrase) => {
    expect(readValue(phrase, NAMES)).toEqual({ kind: 'missing', phrase, candidates: [] });
  });

  it('lists the names a phrase could mean when several fit equally', () => {
    expect(readValue('the demo value', ['demo_email', 'demo_password'])).toEqual({ kind: 'missing', phrase: 'the demo value', candidates: ['demo_email', 'demo_password'] });
  });

  it('prefers the name that says most about the phrase', () => {
    expect(readValue('the demo admin password', ['password', 'admin_password', 'demo_admin_password'])).toEqual(named('demo_admin_password'));
  });

  it('ignores a name with no words', () => {
    expect(readValue('Blue', ['___'])).toEqual(literal('Blue'));
  });
});

describe('questions about test values', () => {
  it('asks to configure a missing one, or which of several', () => {
    expect(missingValueQuestion('the demo password', [])).toBe('Which test value holds the demo password? Configure it in testValueSecretRefs.');
    expect(missingValueQuestion('the demo value', ['a', 'b'])).toBe('Which test value holds the demo value: a or b?');
  });

  it.each<[string, string | undefined]>([
    ['demoPassword', 'demoPassword'],
    ['use demoPassword, please', 'demoPassword'],
    ['It is coupon_code.', 'coupon_code'],
    ['demoPassword or demoEmail', undefined],
    ['demoPasswords', undefined],
    ['no idea', undefined],
  ])('finds the name in the answer %j', (answer, name) => {
    expect(nameInAnswer(answer, NAMES)).toBe(name);
  });
});
