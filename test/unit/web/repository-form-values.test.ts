import { describe, expect, it } from '@jest/globals';
import { parseLines, parseProbeRefs, parseSecretRefs, secretRefLines } from '../../../web/src/repositories/form-values.js';

describe("the connect form's multi-line fields", () => {
  it('reads an allowlist one host a line, blank lines and spaces ignored', () => {
    expect(parseLines(' api.shop.example \n\n cdn.example:8443\r\n')).toEqual(['api.shop.example', 'cdn.example:8443']);
  });

  it('reads name=ENV lines into testValueSecretRefs and round-trips them', () => {
    const parsed = parseSecretRefs('email = SHOP_EMAIL\n\npassword=SHOP_PASSWORD');
    expect(parsed).toEqual({ value: { email: 'SHOP_EMAIL', password: 'SHOP_PASSWORD' }, problems: [] });
    expect(secretRefLines(parsed.value)).toBe('email=SHOP_EMAIL\npassword=SHOP_PASSWORD');
  });

  it('names each line that does not read, and a name given twice', () => {
    expect(parseSecretRefs('email\n=X\nemail=A\nemail=B\npassword=').problems).toEqual([
      'line 1: write name=ENV_NAME',
      'line 2: write name=ENV_NAME',
      'line 4: email is given twice',
      'line 5: write name=ENV_NAME',
    ]);
  });

  it('keeps __proto__ as a plain key, never a prototype', () => {
    const { value } = parseSecretRefs('__proto__=EVIL');
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('reads criterion=url,token lines into evidenceProbeRefs', () => {
    expect(parseProbeRefs('orderStored = orderUrl, orderToken')).toEqual({ value: { orderStored: { urlValueRef: 'orderUrl', tokenValueRef: 'orderToken' } }, problems: [] });
    expect(parseProbeRefs('a=b\nc=d,e,f').problems).toEqual(['line 1: write criterion=urlValueRef,tokenValueRef', 'line 2: write criterion=urlValueRef,tokenValueRef']);
  });
});
