import { failingFindings, failureMessage, type ReplayResult } from './replay-result.js';

/**
 * JUnit XML as CI systems read it (GitHub Actions test reporters, GitLab, Jenkins, CircleCI): one `testsuite` for the
 * repository, one `testcase` per check with its time; a failed replay is a `failure` (its first finding's title as
 * the message, expected/actual and the links in the body), a replay that could not finish (errored, timed out,
 * cancelled, waiting for answers, not created) an `error`. Everything from the service is escaped, and characters
 * XML 1.0 cannot carry are replaced, so a hostile finding cannot break the document.
 */
export interface JUnitSuite {
  /** The repository, as `owner/name` where known, else its id. */
  name: string;
  baseUrl: string;
  /** When the replay started (ISO 8601). */
  timestamp: string;
  results: readonly ReplayResult[];
}

// XML 1.0 allows tab, line feed, carriage return and these ranges; everything else (other controls, lone surrogates,
// U+FFFE/U+FFFF) cannot appear even escaped.
// eslint-disable-next-line no-control-regex -- matching the characters XML cannot carry is the point
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

function failureBody(result: ReplayResult): string {
  const lines: string[] = [];
  for (const finding of failingFindings(result)) {
    lines.push(finding.title);
    if (finding.detail && finding.detail !== finding.title) lines.push(finding.detail);
    if (finding.expected !== null) lines.push(`expected: ${finding.expected}`);
    if (finding.actual !== null) lines.push(`actual: ${finding.actual.length === 0 ? '(nothing)' : finding.actual.join(' | ')}`);
    lines.push('');
  }
  if (result.error) lines.push(result.error, '');
  for (const [label, link] of Object.entries(result.links)) if (link) lines.push(`${label}: ${link}`);
  return lines.join('\n').trim();
}

function testCase(suite: JUnitSuite, result: ReplayResult): string {
  const open = `    <testcase name="${xmlAttribute(result.name)}" classname="${xmlAttribute(`${suite.name}.${result.checkId}`)}" time="${seconds(result.durationMs)}"`;
  const links = Object.entries(result.links).filter(([, link]) => link !== null).map(([label, link]) => `${label}: ${link}`);
  const out = links.length > 0 ? `\n      <system-out>${xmlText(links.join('\n'))}</system-out>` : '';
  if (result.status === 'passed') return `${open}>${out}\n    </testcase>`;
  const element = result.status === 'failed' ? 'failure' : 'error';
  const type = result.status === 'failed' ? (failingFindings(result)[0]?.kind ?? 'failed') : result.status;
  return `${open}>\n      <${element} message="${xmlAttribute(failureMessage(result))}" type="${xmlAttribute(type)}">${xmlText(failureBody(result))}</${element}>${out}\n    </testcase>`;
}

export function renderJUnit(suite: JUnitSuite): string {
  const { results } = suite;
  const failures = results.filter((result) => result.status === 'failed').length;
  const errors = results.filter((result) => result.status !== 'passed' && result.status !== 'failed').length;
  const time = seconds(results.reduce((total, result) => total + result.durationMs, 0));
  const counts = `tests="${results.length}" failures="${failures}" errors="${errors}" skipped="0" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="qa replay" ${counts}>`,
    `  <testsuite name="${xmlAttribute(suite.name)}" ${counts} timestamp="${xmlAttribute(suite.timestamp)}">`,
    '    <properties>',
    `      <property name="baseUrl" value="${xmlAttribute(suite.baseUrl)}"/>`,
    '    </properties>',
    ...results.map((result) => testCase(suite, result)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
