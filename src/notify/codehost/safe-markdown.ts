/**
 * Text from outside (a page's wording in findings and expected/actual, step descriptions, a task typed in a PR
 * comment) made inert for GitHub-flavoured Markdown: it shows as typed and does nothing else. Rendered Markdown is
 * filtered by the code host for mentions (`@user`, `@org/team`: a notification to everyone named), references
 * (`#12`, `org/repo#12`: a cross-reference on another issue) and bare-URL autolinks *after* Markdown and HTML entities
 * are resolved, so a backslash or an entity does not stop them; a zero-width space after the `@`, before the digits
 * of a reference and inside `://` does (the way Renovate and Dependabot quote release notes).
 * Spec: https://github.github.com/gfm/ (backslash escapes, entity references, autolinks extension).
 */

/** U+200B: invisible, breaks the code host's mention, reference and autolink patterns. */
const ZWSP = '\u200b';

/** ASCII punctuation that means something in GFM (emphasis, code, links, headings, lists, tables, math, HTML). */
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#+\-!|~$]/g;

/** One line of at most `max` characters (before escaping): white space collapsed, an ellipsis where it was cut. */
export function oneLine(text: string, max: number): string {
  // Cut before collapsing a huge text, so a 200 KB finding costs no 200 KB regex pass... beyond one bounded slice.
  const line = text.slice(0, max * 4 + 16).replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  // Never end on half of a surrogate pair.
  const cut = /[\ud800-\udbff]$/.test(line.slice(0, max - 1)) ? max - 2 : max - 1;
  return `${line.slice(0, cut)}…`;
}

/**
 * `text` as inert Markdown on one line: at most `max` characters of it are shown (the escaped result is longer, by
 * at most six times). HTML is escaped (`<img …>` shows as text), Markdown punctuation is backslash-escaped
 * (`](javascript:…)` is no link, a backtick opens no code span), and mentions, references and URLs are broken.
 */
export function inert(text: string, max: number): string {
  return oneLine(text, max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MARKDOWN_PUNCTUATION, (char) => `\\${char}`)
    .replace(/@/g, `@${ZWSP}`)
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}${ZWSP}.`);
}

/**
 * A link to one of the service's own addresses (built from PUBLIC_BASE_URL and ids), with an inert label. The URL
 * is ours, but a configured base could hold characters that end a Markdown link: they are percent-encoded.
 */
export function ownLink(label: string, url: string): string {
  const safeUrl = url.replace(/[\s()<>[\]"'`]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `[${inert(label, 200)}](${safeUrl})`;
}

/**
 * `text` cut to at most `max` characters at a line break, with a note that it was cut: a body over the code host's
 * limit is refused (422) rather than shortened. Cutting between lines never leaves half an escape or half a link.
 */
export function boundedMarkdown(text: string, max: number, note = '\n\n_…cut to fit the code host\'s size limit._'): string {
  if (text.length <= max) return text;
  const room = max - note.length;
  const cut = text.lastIndexOf('\n', room);
  return `${text.slice(0, cut > 0 ? cut : room)}${note}`;
}
