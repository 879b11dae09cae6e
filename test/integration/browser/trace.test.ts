import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext } from 'playwright';
import { createAccessibilityAudit } from '../../../src/browser/accessibility.js';
import { startTrace, stopTrace } from '../../../src/browser/trace.js';
import { createTraceScrubber } from '../../../src/browser/trace-secrets.js';
import { readZip, type ZipEntry } from '../../../src/browser/zip.js';
import { SECRET_MASK } from '../../../src/core/secrets.js';
import { DEFAULT_ACCOUNT } from '../../fixtures/demo-app/index.js';
import { useDemoBrowser } from '../../support/demo-browser.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PLAYWRIGHT_CLI = join(REPO, 'node_modules/.bin/playwright');
const { email: EMAIL, password: PASSWORD } = DEFAULT_ACCOUNT;

/** Each secret as typed and in the encodings a trace writes: JSON-escaped, percent-encoded (either hex case), form-encoded. */
const FORBIDDEN = [EMAIL, PASSWORD].flatMap((secret) => {
  const percent = encodeURIComponent(secret);
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  return [secret, JSON.stringify(secret).slice(1, -1), percent, percent.toLowerCase(), form, form.toLowerCase()];
});

const run = promisify(execFile);
/** Playwright's own trace CLI (`npx playwright trace …`), which extracts the trace under `cwd`. */
async function traceCli(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(PLAYWRIGHT_CLI, ['trace', ...args], { cwd, timeout: 30_000 });
  return stdout;
}

const entry = (entries: ZipEntry[], name: string) => entries.find((candidate) => candidate.name === name);
const lines = (data: Buffer) => data.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('scrubbed Playwright traces of a real browser', () => {
  const { demo, browser } = useDemoBrowser();
  let work: string;
  const scrubber = createTraceScrubber([EMAIL, PASSWORD]);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'trace-test-'));
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** A fresh context, traced, signed in to the demo shop by filling the password and the email. */
  async function tracedSignIn(): Promise<BrowserContext> {
    const context = await browser().newContext();
    await startTrace(context);
    const page = await context.newPage();
    await page.goto(`${demo().url}/login`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/products$/);
    await expect(page.getByText(`Signed in as ${EMAIL}`).isVisible()).resolves.toBe(true);
    return context;
  }

  it('keeps no secret in any form anywhere in the trace, and [secret] where the fills were', async () => {
    const context = await tracedSignIn();
    const tempRoot = await mkdtemp(join(work, 'tmp-'));
    const trace = await stopTrace(context, scrubber, tempRoot);
    await context.close();
    expect(trace).toBeInstanceOf(Buffer);
    // The unscrubbed trace Playwright wrote is gone with its folder.
    await expect(readdir(tempRoot)).resolves.toEqual([]);

    const entries = await readZip(trace!);
    for (const { name, data } of entries) {
      const bytes = data.toString('latin1');
      expect({ name, found: FORBIDDEN.filter((form) => bytes.includes(form)) }).toEqual({ name, found: [] });
    }

    const events = lines(entry(entries, 'trace.trace')!.data);
    const fills = events.filter((event) => event.type === 'before' && event.method === 'fill');
    expect(fills.map((event) => (event.params as { value: unknown }).value)).toEqual([SECRET_MASK, SECRET_MASK]);
    expect(events.filter((event) => event.type === 'log' && event.message === `  fill("${SECRET_MASK}")`)).toHaveLength(2);
    // The DOM snapshots keep the fields, with the mask as their value.
    const snapshots = events.filter((event) => event.type === 'frame-snapshot').map((event) => JSON.stringify(event));
    expect(snapshots.some((snapshot) => snapshot.includes(`"__playwright_value_":"${SECRET_MASK}"`))).toBe(true);
    expect(snapshots.some((snapshot) => snapshot.includes(`Signed in as ${SECRET_MASK}`))).toBe(true);

    // The form post is in the network log; its body is a resource, masked and renamed after its masked content.
    const post = lines(entry(entries, 'trace.network')!.data)
      .map((event) => (event.snapshot as { request: { method: string; url: string; postData?: { _file?: string } } }).request)
      .find((request) => request.method === 'POST' && request.url.endsWith('/login'));
    const body = entry(entries, post!.postData!._file!);
    expect(body?.data.toString()).toBe(`next=%2Fproducts&email=${SECRET_MASK}&password=${SECRET_MASK}`);
  });

  it('leaves out the screencast once a secret was typed, and Playwright still opens the trace', async () => {
    const context = await tracedSignIn();
    const trace = await stopTrace(context, scrubber, work);
    await context.close();
    const entries = await readZip(trace!);
    const names = entries.map(({ name }) => name);
    expect(names).toEqual(expect.arrayContaining(['trace.trace', 'trace.network']));
    expect(names.filter((name) => name.startsWith('resources/')).length).toBeGreaterThan(0);
    expect(names.filter((name) => name.startsWith('screencast/') || name.endsWith('.jpeg'))).toEqual([]);
    expect(lines(entry(entries, 'trace.trace')!.data).filter((event) => event.type === 'screencast-frame')).toEqual([]);
    expect(trace!.length).toBeLessThan(1024 * 1024);

    const viewer = await mkdtemp(join(work, 'viewer-'));
    await writeFile(join(viewer, 'trace.zip'), trace!);
    const summary = await traceCli(viewer, 'open', 'trace.zip');
    expect(summary).toMatch(/Browser:\s+chromium/);
    expect(summary).toMatch(/Network:\s+3 requests/);
    const actions = await traceCli(viewer, 'actions');
    expect(actions.match(/Fill "\[secret\]"/g)).toHaveLength(2);
    expect(actions).toContain("getByRole('button', { name: 'Sign in' })");
    const requests = await traceCli(viewer, 'requests');
    expect(requests).toMatch(/POST\s+303\s+login/);
    const post = await traceCli(viewer, 'request', requests.match(/(\d+)\.\s+\S+\s+POST/)![1]);
    const bodyPath = post.match(/Request body\s+(\S+)/)![1];
    await expect(readFile(join(viewer, bodyPath), 'utf8')).resolves.toBe(`next=%2Fproducts&email=${SECRET_MASK}&password=${SECRET_MASK}`);
    for (const output of [summary, actions, requests, post]) for (const form of FORBIDDEN) expect(output).not.toContain(form);
  }, 60_000);

  it('keeps the screencast of a run that never met a secret', async () => {
    const context = await browser().newContext();
    await startTrace(context);
    const page = await context.newPage();
    await page.goto(`${demo().url}/pricing`);
    await page.getByRole('link', { name: 'Products' }).click();
    await page.waitForURL(/\/login/);
    const trace = await stopTrace(context, scrubber, work);
    await context.close();
    const entries = await readZip(trace!);
    const frames = lines(entry(entries, 'trace.trace')!.data).filter((event) => event.type === 'screencast-frame');
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(entry(entries, frame.file as string)?.data.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it("records the network only with DOM snapshots, as Playwright 1.65 does (what evidence.ts says of a replay's trace)", async () => {
    const networkOf = async (snapshots: boolean) => {
      const context = await browser().newContext();
      await startTrace(context, { screenshots: false, snapshots });
      const page = await context.newPage();
      await page.goto(`${demo().url}/pricing`);
      const trace = await stopTrace(context, scrubber, work);
      await context.close();
      const entries = await readZip(trace!);
      const actions = lines(entry(entries, 'trace.trace')!.data).filter((event) => event.type === 'before').map((event) => event.method);
      return { actions, network: lines(entry(entries, 'trace.network')?.data ?? Buffer.alloc(0)).length };
    };
    const without = await networkOf(false);
    const withSnapshots = await networkOf(true);

    expect(without).toEqual({ actions: expect.arrayContaining(['goto']), network: 0 });
    expect(withSnapshots.network).toBeGreaterThan(0);
  });

  it('keeps the accessibility audits as actions but axe-core itself never gets in; a run told to records no screencast', async () => {
    const context = await browser().newContext();
    await startTrace(context, { screenshots: false });
    const page = await context.newPage();
    const audit = createAccessibilityAudit({ crossOriginFrames: false });
    for (const path of ['/pricing', '/a11y']) {
      await page.goto(`${demo().url}${path}`);
      await audit.audit(page, null);
    }
    expect(audit.auditedPages()).toHaveLength(2);
    const trace = await stopTrace(context, scrubber, work);
    await context.close();
    const entries = await readZip(trace!);
    const events = lines(entry(entries, 'trace.trace')!.data);
    const audits = events.filter((event) => event.type === 'before' && event.method === 'evaluateExpression');
    // The audits are there as the call of axe.run they make; axe's source went to the page outside the trace.
    const expressions = audits.map((event) => (event.params as { expression: string }).expression);
    expect(expressions).toEqual([expect.stringContaining('axe.run(document'), expect.stringContaining('axe.run(document')]);
    expect(expressions.every((expression) => expression.length < 4096)).toBe(true);
    expect(entry(entries, 'trace.trace')!.data.toString('utf8')).not.toContain('Deque Systems');
    // Every copy of axe (0.65 MB each) would be in there otherwise; the pages' DOM snapshots still are.
    expect(entry(entries, 'trace.trace')!.data.length).toBeLessThan(200 * 1024);
    expect(events.filter((event) => event.type === 'frame-snapshot').length).toBeGreaterThan(0);
    expect(events.filter((event) => event.type === 'screencast-frame')).toEqual([]);
  });

  it('has nothing to keep when the context closed before the trace was stopped', async () => {
    const context = await tracedSignIn();
    await context.close();
    const tempRoot = await mkdtemp(join(work, 'closed-'));
    await expect(stopTrace(context, scrubber, tempRoot)).resolves.toBeUndefined();
    await expect(readdir(tempRoot)).resolves.toEqual([]);
  });
});
