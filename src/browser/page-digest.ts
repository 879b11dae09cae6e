import { createHash } from 'node:crypto';

/**
 * A page script (a string: it runs through a DevTools session, see accessibility.ts) that writes out everything an
 * axe audit of the top document reads, or null when it cannot see all of it:
 * - the viewport and the document mode (layout, media queries);
 * - every element with its attributes, every text, in document order, open shadow roots included, with what the
 *   markup does not show: a field's value and checked state, a selected option, the focused element;
 * - every style sheet's rules (`@import`ed and adopted ones too), and whether it is on.
 * Left out, as axe never reads them: comments, the text of scripts, the value of hidden inputs (a CSRF token
 * differs on every load). Null when a style sheet cannot be read (another origin's, without CORS): its rules are
 * unknown, so two such pages cannot be told apart.
 */
export const PAGE_DIGEST_SCRIPT = `(() => {
  // One item per piece, each marked with what it is, written as JSON: no two different pages write the same text.
  const out = ['viewport', innerWidth, innerHeight, devicePixelRatio, document.compatMode];
  let unreadable = false;
  const active = document.activeElement;
  const rulesOf = (sheet) => {
    out.push('sheet', sheet.href, sheet.disabled, sheet.media ? sheet.media.mediaText : '');
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      unreadable = true;
      return;
    }
    for (const rule of rules) {
      if (rule.styleSheet) rulesOf(rule.styleSheet);
      else out.push('rule:' + rule.cssText);
    }
  };
  const sheetsOf = (root) => {
    for (const sheet of root.styleSheets) rulesOf(sheet);
    for (const sheet of root.adoptedStyleSheets || []) rulesOf(sheet);
  };
  const visit = (node) => {
    if (node.nodeType === 3) {
      out.push('text:' + node.data);
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = node.localName;
    const hidden = tag === 'input' && node.type === 'hidden';
    out.push('element:' + tag);
    for (const attribute of node.attributes) {
      if (!(hidden && attribute.name === 'value')) out.push('attribute:' + attribute.name, attribute.value);
    }
    if (node === active) out.push('focused');
    if ((tag === 'input' && !hidden) || tag === 'textarea' || tag === 'select') out.push('value', node.value);
    if (tag === 'input') out.push('checked', node.checked, node.indeterminate);
    if (tag === 'option') out.push('selected', node.selected);
    out.push('children');
    if (node.shadowRoot) {
      out.push('shadow');
      sheetsOf(node.shadowRoot);
      for (const child of node.shadowRoot.childNodes) visit(child);
      out.push('end of shadow');
    }
    if (tag !== 'script') for (const child of node.childNodes) visit(child);
    out.push('end');
  };
  sheetsOf(document);
  if (document.documentElement) visit(document.documentElement);
  return unreadable ? null : JSON.stringify(out);
})()`;

/** The digest of what PAGE_DIGEST_SCRIPT returned; undefined when it returned null (the page cannot be digested). */
export function pageDigestOf(written: unknown): string | undefined {
  return typeof written === 'string' ? createHash('sha256').update(written, 'utf8').digest('base64url') : undefined;
}
