import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { renderJUnit } from '../../../src/cli/replay/junit.js';
import { duration, pathsOf } from '../../../src/cli/replay/replay-options.js';
import type { FindingBody, ReplayResult } from '../../../src/cli/replay/replay-result.js';
import { renderSummary } from '../../../src/cli/replay/summary.js';

const XSD = readFileSync('test/fixtures/junit/junit.xsd', 'utf8');
const HOSTILE = 'Cart <img src=x onerror=alert(1)> & "total" \u0000\u001b[31m ]]> `code` | pipe @team #12 \ud800';

function finding(overrides: Partial<FindingBody> = {}): FindingBody {
  return {
    id: '11111111-1111-4111-8111-111111111111', kind: 'assertion_failed', severity: 'error', title: 'The total did not show', detail: 'Step 3',
    stepIndex: 2, expected: 'Total $18.00', actual: ['Total $20.00', 'Subtotal $20.00'], artifactIds: [], createdAt: '2026-12-07T00:00:00.000Z',
    disputedAt: null, disputedBy: null, disputeReason: null, ...overrides,
  };
}

function result(status: ReplayResult['status'], overrides: Partial<ReplayResult> = {}): ReplayResult {
  return {
    checkId: `check-${status}`, name: `Check ${status}`, jobId: '22222222-2222-4222-8222-222222222222', status, durationMs: 1234, findings: [],
    links: { job: 'https://qa.example/jobs/2222', screenshot: null, trace: null }, error: null, ...overrides,
  };
}

async function validate(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const answer = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: XSD }] });
  return { valid: answer.valid, errors: answer.errors.map((error) => error.message) };
}

describe('JUnit XML of qa replay', () => {
  const results = [
    result('passed'),
    result('failed', { findings: [finding({ title: HOSTILE, expected: HOSTILE, actual: [HOSTILE] }), finding({ severity: 'warning', title: 'A console warning' })], links: { job: 'https://qa.example/jobs/2', screenshot: 'https://qa.example/api/jobs/2/artifacts/s', trace: 'https://qa.example/api/jobs/2/artifacts/t' } }),
    result('errored', { error: 'Could not replay: the service answered 503' }),
    result('timed_out', { jobId: null, durationMs: 0, links: { job: null, screenshot: null, trace: null }, error: 'Not started' }),
    result('failed', { name: HOSTILE, findings: [finding({ disputedAt: '2026-12-07T00:00:00.000Z', disputedBy: 'ann', disputeReason: 'known' })] }),
  ];
  const xml = renderJUnit({ name: 'acme/shop', baseUrl: 'https://preview-42.shop.example', timestamp: '2026-12-07T01:02:03.000Z', results });

  it('validates against the reporters\' schema, hostile text and all; the validator refuses what breaks it', async () => {
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
    expect((await validate(xml.replace(' classname="acme/shop.check-passed"', ''))).valid).toBe(false);
    expect((await validate(xml.replace('time="1.234"', 'time="soon"'))).valid).toBe(false);
  });

  it('counts failures and errors as CI systems do, with each test case\'s time', () => {
    expect(xml).toContain('<testsuites name="qa replay" tests="5" failures="2" errors="2" skipped="0" time="4.936">');
    expect(xml).toContain('<testsuite name="acme/shop" tests="5" failures="2" errors="2" skipped="0" time="4.936" timestamp="2026-12-07T01:02:03.000Z">');
    expect(xml).toContain('<property name="baseUrl" value="https://preview-42.shop.example"/>');
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml.match(/<error /g)).toHaveLength(2);
  });

  it('puts the finding\'s message, expected, actual and links in the failure, escaped; warnings and disputed findings are not failures', () => {
    const failure = /<testcase name="Check failed"[^>]*>\n {6}<failure message="([^"]*)" type="assertion_failed">([^<]*)<\/failure>/.exec(xml);
    expect(failure).not.toBeNull();
    expect(failure![1]).toContain('Cart &lt;img src=x onerror=alert(1)&gt; &amp; &quot;total&quot;');
    expect(failure![2]).toContain('expected: Cart &lt;img');
    expect(failure![2]).toContain('actual: Cart &lt;img');
    expect(failure![2]).toContain('trace: https://qa.example/api/jobs/2/artifacts/t');
    expect(failure![2]).not.toContain('A console warning');
    expect(xml).not.toContain('<img');
    expect([...xml].some((char) => char === '\u0000' || char === '\u001b')).toBe(false);
    expect(xml).toContain('The replay ended failed'); // the disputed finding's case fails without a message of its own
  });
});

describe('the Markdown summary', () => {
  it('counts, lists failures first, and keeps hostile text inert in code spans', () => {
    const summary = renderSummary('acme/shop', 'https://preview.example', [
      result('passed'),
      result('failed', { name: HOSTILE, findings: [finding({ title: HOSTILE })], links: { job: 'javascript:alert(1)', screenshot: 'https://qa.example/s', trace: null } }),
    ]);
    expect(summary).toContain('### QA replay: 1 of 2 passed');
    const rows = summary.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows[0]).toContain('❌ failed');
    expect(rows[1]).toContain('✅ passed');
    // Inert: hostile text only inside code spans, its pipes escaped so that the table keeps its five columns.
    expect(rows[0]).toContain('`Cart <img src=x onerror=alert(1)> & "total"');
    for (const row of rows) expect(row.replace(/\\\|/g, '').match(/\|/g)).toHaveLength(6);
    expect(summary).not.toContain('javascript:');
    expect(summary).toContain('[screenshot](<https://qa.example/s>)');
  });
});

describe('qa replay options', () => {
  it('reads durations and changed-file lists', () => {
    expect([duration('90s'), duration('15m'), duration('1h'), duration('2500ms'), duration('30')]).toEqual([90_000, 900_000, 3_600_000, 2_500, 30_000]);
    for (const bad of ['soon', '0s', '25h', '-5m', '1e3', '']) expect(() => duration(bad)).toThrow('must be a duration');
    expect(pathsOf('src/a.ts\r\n\n  src/b.ts \nsrc/a.ts\n')).toEqual(['src/a.ts', 'src/b.ts']);
  });
});
