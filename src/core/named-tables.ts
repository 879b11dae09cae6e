/**
 * "The Example 1 table", "the Orders table": the table a person names when a page has several. Its name is its
 * accessible name (a caption or aria-label), else the heading that comes last before it in page order, as a page
 * titles a table it shows under a heading. Pure, over the grounding's flattened snapshot.
 */
import type { GroundNode } from './grounding.js';

const TABLE_ROLES = ['table', 'grid', 'treegrid'];

function normal(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The heading just before `table` in page order, outside it; undefined when there is none. */
function headingBefore(nodes: readonly GroundNode[], table: GroundNode): GroundNode | undefined {
  for (let index = table.index - 1; index >= 0; index -= 1) {
    const node = nodes[index]!;
    if (node.role === 'heading') return node;
    // Another table in between: the heading titles that one.
    if (TABLE_ROLES.includes(node.role) && !table.ancestors.includes(node.index)) return undefined;
  }
  return undefined;
}

/** The tables `name` names: by their own name first, else by the heading before them; the words must match whole. */
export function tablesNamed(nodes: readonly GroundNode[], name: string): GroundNode[] {
  const wanted = normal(name);
  const tables = nodes.filter((node) => TABLE_ROLES.includes(node.role));
  const says = (text: string) => normal(text) === wanted || new RegExp(`(?:^|\\W)${wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|\\W)`).test(normal(text));
  const byName = tables.filter((table) => table.name !== '' && says(table.name));
  if (byName.length > 0) return byName;
  return tables.filter((table) => {
    const heading = headingBefore(nodes, table);
    return heading !== undefined && says(heading.text || heading.name);
  });
}
