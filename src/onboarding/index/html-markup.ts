/**
 * HTML to markup elements with htmlparser2's streaming parser: forgiving like a browser about unclosed and void
 * elements, and it builds no DOM we do not need. Used for `.html` files and for HTML a server writes in its strings.
 */
import { Parser } from 'htmlparser2';
import type { MarkupElement } from './markup.js';

/** `offset` places the elements in the file the HTML came from (the string's position in a script). */
export function htmlMarkup(html: string, offset = 0): MarkupElement[] {
  const roots: MarkupElement[] = [];
  const open: MarkupElement[] = [];
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        const element: MarkupElement = { tag, attrs: { ...attrs }, children: [], at: offset + parser.startIndex };
        const parent = open[open.length - 1];
        if (parent) parent.children.push(element);
        else roots.push(element);
        open.push(element);
      },
      ontext(text) {
        open[open.length - 1]?.children.push(text);
      },
      onclosetag() {
        open.pop();
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.end(html);
  return roots;
}
