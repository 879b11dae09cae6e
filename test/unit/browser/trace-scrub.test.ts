import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { scrubTraceEntries } from '../../../src/browser/trace-scrub.js';
import { createTraceScrubber } from '../../../src/browser/trace-secrets.js';
import type { ZipEntry } from '../../../src/browser/zip.js';
import { SECRET_MASK } from '../../../src/core/secrets.js';

const EMAIL = 'demo@example.test';
const PASSWORD = 'demo-Pa55word!';
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]);

/** A trace as Playwright 1.65 writes one for a sign-in, cut down to the lines that matter. */
function signInTrace(): { entries: ZipEntry[]; body: Buffer; frame: Buffer; oldFrame: Buffer; logo: Buffer } {
  const body = Buffer.from(new URLSearchParams({ email: EMAIL, password: PASSWORD }).toString());
  const frame = jpeg();
  const oldFrame = jpeg();
  const logo = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(100)]);
  const lines = [
    { type: 'context-options', version: 8, browserName: 'chromium', options: {} },
    { type: 'before', callId: 'call@1', class: 'Frame', method: 'fill', params: { selector: 'internal:label="Email"i', value: EMAIL } },
    { type: 'log', callId: 'call@1', message: `  fill(${JSON.stringify(PASSWORD)})` },
    { type: 'screencast-frame', pageId: 'page@1', file: 'screencast/page@1-1.jpeg', width: 1280, height: 720, timestamp: 1 },
    { type: 'screencast-frame', pageId: 'page@1', sha1: `${sha1(oldFrame)}.jpeg`, width: 1280, height: 720, timestamp: 2 },
    { type: 'frame-snapshot', snapshot: { html: ['INPUT', { __playwright_value_: PASSWORD, type: 'password' }] } },
  ];
  const network = {
    type: 'resource-snapshot',
    snapshot: {
      request: { url: `http://shop.test/login?next=${encodeURIComponent(`/welcome?who=${EMAIL}`)}`, postData: { text: '', _file: `resources/${sha1(body)}.dat` } },
      response: { content: { _file: `resources/${sha1(logo)}.png` } },
    },
  };
  return {
    body,
    frame,
    oldFrame,
    logo,
    entries: [
      { name: 'trace.trace', data: Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n') + '\n') },
      { name: 'trace.network', data: Buffer.from(JSON.stringify(network) + '\n') },
      { name: 'screencast/page@1-1.jpeg', data: frame },
      { name: `resources/${sha1(oldFrame)}.jpeg`, data: oldFrame },
      { name: `resources/${sha1(body)}.dat`, data: body },
      { name: `resources/${sha1(logo)}.png`, data: logo },
      { name: `attachments/${EMAIL}.txt`, data: Buffer.from('a note') },
      { name: 'resources/font.woff2', data: Buffer.concat([Buffer.from([0x77, 0x4f, 0x46, 0x32, 0xff]), Buffer.from(`..${PASSWORD}..`)]) },
    ],
  };
}

const events = (entries: ZipEntry[]) =>
  entries.find((entry) => entry.name === 'trace.trace')!.data.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('scrubbing a trace', () => {
  const scrubber = createTraceScrubber([EMAIL, PASSWORD]);

  it('masks every secret in every entry, in every form, and says so', () => {
    const { entries } = signInTrace();
    const result = scrubTraceEntries(entries, scrubber);
    expect(result.secretsFound).toBe(true);
    expect(result.entries.map((entry) => entry.name)).toContain(`attachments/${SECRET_MASK}.txt`);
    for (const entry of result.entries) {
      expect(entry.name).not.toContain(EMAIL);
      const bytes = entry.data.toString('latin1');
      for (const form of [EMAIL, PASSWORD, encodeURIComponent(EMAIL), encodeURIComponent(PASSWORD), 'demo-Pa55word%21', 'demo%40example.test']) {
        expect({ entry: entry.name, holds: bytes.includes(form) }).toEqual({ entry: entry.name, holds: false });
      }
    }
    const fill = events(result.entries).find((event) => event.method === 'fill') as { params: { value: string } };
    expect(fill.params.value).toBe(SECRET_MASK);
    expect(events(result.entries).find((event) => event.type === 'log')).toMatchObject({ message: `  fill("${SECRET_MASK}")` });
    const font = result.entries.find((entry) => entry.name === 'resources/font.woff2')!;
    expect(font.data.subarray(0, 5)).toEqual(Buffer.from([0x77, 0x4f, 0x46, 0x32, 0xff]));
    expect(font.data.subarray(5).toString()).toBe(`..${SECRET_MASK}..`);
  });

  it('leaves out every picture of the page, and the events that name them, once a secret was there', () => {
    const { entries, logo } = signInTrace();
    const result = scrubTraceEntries(entries, scrubber);
    expect(result.droppedImages).toBe(2);
    expect(result.entries.some((entry) => entry.name.endsWith('.jpeg'))).toBe(false);
    expect(events(result.entries).map((event) => event.type)).toEqual(['context-options', 'before', 'log', 'frame-snapshot']);
    // The page's own images are resources, not pictures of what was typed: kept byte for byte.
    expect(result.entries.find((entry) => entry.name === `resources/${sha1(logo)}.png`)?.data.equals(logo)).toBe(true);
  });

  it('renames a scrubbed resource after its new content, so no hash of a secret is left to test guesses against', () => {
    const { entries, body } = signInTrace();
    const result = scrubTraceEntries(entries, scrubber);
    const scrubbedBody = Buffer.from(`email=${SECRET_MASK}&password=${SECRET_MASK}`);
    const dat = result.entries.find((entry) => entry.name.endsWith('.dat'))!;
    expect(dat.data).toEqual(scrubbedBody);
    expect(dat.name).toBe(`resources/${sha1(scrubbedBody)}.dat`);
    const network = result.entries.find((entry) => entry.name === 'trace.network')!.data.toString();
    expect(network).toContain(`"_file":"${dat.name}"`);
    for (const entry of result.entries) expect(entry.data.toString('latin1')).not.toContain(sha1(body));
  });

  it('keeps a trace without secrets exactly as it was, pictures included', () => {
    const { entries } = signInTrace();
    const result = scrubTraceEntries(entries, createTraceScrubber(['not-in-this-trace']));
    expect(result).toEqual({ entries, secretsFound: false, droppedImages: 0 });
    result.entries.forEach((entry, index) => expect(entry.data).toBe(entries[index].data));
  });
});
