import { describe, expect, it } from '@jest/globals';
import { createTraceScrubber, secretVariants } from '../../../src/browser/trace-secrets.js';
import { SECRET_MASK } from '../../../src/core/secrets.js';

const PASSWORD = 'pä ss"<w>\'rd!';
const EMAIL = 'Demo.User@Example.test';

describe('trace scrubber', () => {
  const scrubber = createTraceScrubber([PASSWORD, EMAIL, 'ab']);

  it('masks a secret in each form a trace writes it in', () => {
    const forms = [
      PASSWORD,
      JSON.stringify(PASSWORD).slice(1, -1), // action parameters
      JSON.stringify(`fill(${JSON.stringify(PASSWORD)})`), // a log line inside a JSON line
      JSON.stringify(JSON.stringify(`fill(${JSON.stringify(PASSWORD)})`)), // and that quoted once more
      encodeURIComponent(PASSWORD),
      encodeURIComponent(PASSWORD).toLowerCase(),
      new URLSearchParams({ password: PASSWORD }).toString(), // a submitted form body: + for spaces, %21 for !
      encodeURI(PASSWORD),
      'pä ss&quot;&lt;w&gt;&#39;rd!', // page source
      'pä ss&quot;&lt;w&gt;&#x27;rd!',
      '"p\\u00e4 ss\\"<w>\'rd!"', // JSON writers that escape non-ASCII
      '"pä ss\\"\\u003cw\\u003e\\u0027rd!"', // JSON made safe for inline HTML
      encodeURIComponent(JSON.stringify({ password: PASSWORD })), // JSON in a query string
      EMAIL.toLowerCase(), // as the site shows it back
      encodeURIComponent(EMAIL),
    ];
    for (const form of forms) {
      const masked = scrubber.text(`before ${form} after`);
      expect(masked).toContain(SECRET_MASK);
      // What is left of either secret in any form: the password's `w>`, the email's domain.
      expect(masked).not.toMatch(/w(>|%3E|&gt;|\\u003e)|example\.test/i);
    }
  });

  it('masks credentials inside an Authorization: Basic header, whatever comes before them', () => {
    for (const user of ['a', 'ab', 'abc']) {
      const header = `Basic ${Buffer.from(`${user}:${EMAIL}`).toString('base64')}`;
      expect(scrubber.text(header)).toContain(SECRET_MASK);
    }
  });

  it('masks non-ASCII secrets in binary data read byte for byte', () => {
    const binary = Buffer.concat([Buffer.from([0xff, 0xd8, 0x00]), Buffer.from(`x${PASSWORD}y`, 'utf8'), Buffer.from([0x89])]);
    const masked = scrubber.text(binary.toString('latin1'));
    expect(Buffer.from(masked, 'latin1').toString('latin1')).toBe(`\u00ff\u00d8\u0000x${SECRET_MASK}y\u0089`);
  });

  it('leaves ordinary text, short values and unrelated base64 alone', () => {
    const text = 'A lab about cabs: {"type":"before","params":{"selector":"#email"}} data:image/png;base64,iVBORw0KGgo=';
    expect(scrubber.text(text)).toBe(text);
  });

  it('builds a bounded list of distinct variants', () => {
    const variants = secretVariants(PASSWORD);
    expect(new Set(variants).size).toBe(variants.length);
    expect(variants.length).toBeLessThan(250);
    expect(secretVariants('plainsecret123')).toEqual(expect.arrayContaining(['plainsecret123', 'PLAINSECRET123']));
  });
});
