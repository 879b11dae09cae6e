/** Small helpers over Babel's AST: child nodes, a pre-order walk, and the static value of a string-ish node. */
import type * as t from '@babel/types';

/** Keys that hold positions, comments or parser extras, never child nodes worth visiting. */
const SKIP_KEYS = new Set(['loc', 'start', 'end', 'range', 'extra', 'leadingComments', 'trailingComments', 'innerComments']);
/** Type-level syntax: it names types, not values a page renders or a handler calls. */
const TYPE_ONLY = new Set([
  'TSTypeAnnotation', 'TSTypeParameterInstantiation', 'TSTypeParameterDeclaration', 'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration', 'TSDeclareFunction', 'TSEnumDeclaration',
]);

const isNode = (value: unknown): value is t.Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

export function childNodes(node: t.Node): t.Node[] {
  const children: t.Node[] = [];
  for (const key in node) {
    if (SKIP_KEYS.has(key)) continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item) && !TYPE_ONLY.has(item.type)) children.push(item);
    } else if (isNode(value) && !TYPE_ONLY.has(value.type)) {
      children.push(value);
    }
  }
  return children;
}

/**
 * Visits `root` and its descendants, parents before children, with each node's parent. Iterative: a file of deeply
 * nested expressions must not overflow the stack of the walk (Babel's own recursion is caught by the caller).
 */
export function walk(root: t.Node, enter: (node: t.Node, parent: t.Node | null) => void): void {
  const stack: [t.Node, t.Node | null][] = [[root, null]];
  while (stack.length) {
    const [node, parent] = stack.pop()!;
    enter(node, parent);
    const children = childNodes(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], node]);
  }
}

/** Placeholder for a computed part of a path (`/items/${id}` is `/items/:param`), matching a route's `:id`. */
export const DYNAMIC = ':param';

/** The value of a string literal or template literal (computed parts as `:param`), else null. */
export function staticString(node: t.Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral') {
    return node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join(DYNAMIC);
  }
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'TSNonNullExpression') {
    return staticString(node.expression);
  }
  return null;
}

/** `a.b.c` as written, for receivers and JSX member tags; null for anything computed. */
export function dottedName(node: t.Node): string | null {
  switch (node.type) {
    case 'Identifier': case 'JSXIdentifier': return node.name;
    case 'ThisExpression': return 'this';
    case 'MemberExpression': case 'JSXMemberExpression': {
      if (node.type === 'MemberExpression' && node.computed) return null;
      const object = dottedName(node.object);
      const property = node.property.type === 'Identifier' || node.property.type === 'JSXIdentifier' ? node.property.name : null;
      return object && property ? `${object}.${property}` : null;
    }
    default: return null;
  }
}

export function propertyName(node: t.Node): string | null {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'StringLiteral') return node.value;
  return null;
}
