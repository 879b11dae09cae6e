import { cleanCommentText } from './pr-comment-command.js';

/**
 * Untrusted text (a check fragment someone typed, a stored task) echoed into a code-host comment, made inert: one
 * line, at most `max` characters, inside an inline code span. In a code span GitHub-flavoured Markdown renders
 * nothing: no `@mention` notifies, no `#123` links, no HTML (`<!-- -->`, `<img>`) or emphasis. Backticks, the only
 * way out of the span, become `'`; line breaks, which could end it, become spaces.
 */
export function quoteUntrusted(text: string, max = 80): string {
  const line = cleanCommentText(text).replace(/\s+/g, ' ').trim().replace(/`/g, "'");
  // By code point, so a cut never leaves half of a surrogate pair.
  const points = Array.from(line);
  const bounded = points.length > max ? `${points.slice(0, Math.max(1, max - 1)).join('').trimEnd()}…` : line;
  return bounded === '' ? '(nothing)' : `\`${bounded}\``;
}
