/** JSX as markup elements: static attribute values kept, computed ones `null`, JSX inside expressions kept as children. */
import type * as t from '@babel/types';
import { childNodes, dottedName, staticString } from './ast.js';
import type { MarkupElement, MarkupNode } from './markup.js';

function tagOf(node: t.JSXElement | t.JSXFragment): string {
  if (node.type === 'JSXFragment') return '#fragment';
  const name = node.openingElement.name;
  if (name.type === 'JSXNamespacedName') return `${name.namespace.name}:${name.name.name}`;
  return dottedName(name) ?? '#unknown';
}

function attributeValue(value: t.JSXAttribute['value']): string | null {
  if (value === null || value === undefined) return '';
  if (value.type === 'StringLiteral') return value.value;
  if (value.type !== 'JSXExpressionContainer') return null;
  const expression = value.expression;
  if (expression.type === 'BooleanLiteral') return String(expression.value);
  return expression.type === 'JSXEmptyExpression' ? null : staticString(expression);
}

/** JSX elements inside an expression (`{open && <form/>}`, `{items.map(i => <li/>)}`), outermost only. */
function jsxWithin(expression: t.Node): (t.JSXElement | t.JSXFragment)[] {
  const found: (t.JSXElement | t.JSXFragment)[] = [];
  const stack: t.Node[] = [expression];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'JSXElement' || node.type === 'JSXFragment') found.push(node);
    else stack.push(...childNodes(node).reverse());
  }
  return found;
}

/** Converts `node` and every JSX element nested in it, adding each to `converted` so the walk skips them as roots. */
export function jsxMarkup(node: t.JSXElement | t.JSXFragment, converted: WeakSet<t.Node>): MarkupElement {
  converted.add(node);
  const attrs: Record<string, string | null> = {};
  if (node.type === 'JSXElement') {
    for (const attribute of node.openingElement.attributes) {
      if (attribute.type !== 'JSXAttribute') continue;
      const name = attribute.name.type === 'JSXNamespacedName'
        ? `${attribute.name.namespace.name}:${attribute.name.name.name}`
        : attribute.name.name;
      attrs[name] = attributeValue(attribute.value);
    }
  }
  const children: MarkupNode[] = [];
  for (const child of node.children) {
    if (child.type === 'JSXText') children.push(child.value);
    else if (child.type === 'JSXElement' || child.type === 'JSXFragment') children.push(jsxMarkup(child, converted));
    else if (child.type === 'JSXExpressionContainer' && child.expression.type !== 'JSXEmptyExpression') {
      const text = staticString(child.expression);
      if (text !== null) children.push(text);
      else for (const inner of jsxWithin(child.expression)) children.push(jsxMarkup(inner, converted));
    }
  }
  return { tag: tagOf(node), attrs, children, at: node.start ?? 0 };
}
