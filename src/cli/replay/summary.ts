import { quoteUntrusted } from '../../core/markdown-quote.js';
import { failingFindings, failureMessage, type ReplayResult } from './replay-result.js';

/**
 * Markdown for `$GITHUB_STEP_SUMMARY`: the counts, then a row per check, failures first. Text from the service goes
 * into inline code spans (`quoteUntrusted`), where Markdown renders nothing: no HTML, no mentions, no links.
 */
const ICONS: Record<ReplayResult['status'], string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  errored: '⚠️ errored',
  cancelled: '⏹️ cancelled',
  review_required: '❓ needs answers',
  timed_out: '⏱️ timed out',
};

const ORDER: ReplayResult['status'][] = ['failed', 'errored', 'timed_out', 'review_required', 'cancelled', 'passed'];

/** A link only to an http(s) address, written so that Markdown cannot take anything else from it. */
function link(label: string, url: string | null): string | null {
  if (url === null || !/^https?:\/\//.test(url)) return null;
  return `[${label}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

/** A table cell: GitHub-flavoured Markdown ends a cell at `|` even inside a code span, unless it is escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderSummary(repository: string, baseUrl: string, results: readonly ReplayResult[]): string {
  const passed = results.filter((result) => result.status === 'passed').length;
  const sorted = [...results].sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
  const rows = sorted.map((result) => {
    const finding = failingFindings(result)[0];
    const details = result.status === 'passed' ? '' : [
      quoteUntrusted(failureMessage(result), 120),
      finding?.expected != null ? `expected ${quoteUntrusted(finding.expected, 80)}` : null,
      finding?.actual != null ? `actual ${quoteUntrusted(finding.actual.join(' | ') || '(nothing)', 80)}` : null,
    ].filter(Boolean).join('<br>');
    const links = [link('job', result.links.job), link('screenshot', result.links.screenshot), link('trace', result.links.trace)].filter(Boolean).join(' · ');
    return `| ${cell(quoteUntrusted(result.name, 80))} | ${ICONS[result.status]} | ${(result.durationMs / 1000).toFixed(1)} s | ${cell(details)} | ${links} |`;
  });
  return [
    `### QA replay: ${passed} of ${results.length} passed`,
    '',
    `Repository ${quoteUntrusted(repository)} against ${quoteUntrusted(baseUrl, 120)}.`,
    '',
    '| Check | Result | Time | Details | Links |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
