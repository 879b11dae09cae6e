/**
 * React Router's route declarations, both forms: route objects (`createBrowserRouter([...])`, `useRoutes`, any array
 * of objects with `path` and `element`/`Component`/`lazy`) and `<Route>` trees in JSX (also what wouter and React
 * Router 5 write). Child paths are joined with their parents'; index and pathless layout routes take the parent's.
 */
import type * as t from '@babel/types';
import { childNodes, dottedName, propertyName, staticString, walk } from './ast.js';

/** A route found in a script: its full path, the source ranges naming what it renders, and the modules it lazy-loads. */
export type ClientRouteDraft = ParentRoute;

export const ROUTER_CALLS = new Set([
  'createBrowserRouter', 'createHashRouter', 'createMemoryRouter', 'createStaticRouter', 'useRoutes', 'createRoutesFromElements',
  'createRoutesFromChildren',
]);
/** Route properties that name what the route renders or runs: the files behind it. */
const RENDERS = ['element', 'Component', 'component', 'render', 'loader', 'action', 'lazy'];

export function joinRoutePath(parent: string, child: string): string {
  const joined = child.startsWith('/') ? child : `${parent.replace(/\/+$/, '')}/${child}`;
  const normal = joined.replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1');
  return normal.startsWith('/') ? normal : `/${normal}`;
}

function lazySources(node: t.Node): string[] {
  const sources: string[] = [];
  walk(node, (inner) => {
    if (inner.type === 'CallExpression' && inner.callee.type === 'Import') {
      const source = staticString(inner.arguments[0]);
      if (source) sources.push(source);
    }
  });
  return sources;
}

const range = (node: t.Node): [number, number] => [node.start ?? 0, node.end ?? 0];

/** The route a child is nested in: its path, and what it renders around the child (layouts, through `<Outlet>`). */
export interface ParentRoute {
  path: string;
  ranges: [number, number][];
  sources: string[];
}

export const ROOT_ROUTE: ParentRoute = { path: '', ranges: [], sources: [] };

/** `inits` resolves a name to its top-level initializer: `createBrowserRouter(routes)` with `const routes = [...]`. */
export function routesFromArray(
  array: t.ArrayExpression, parentRoute: ParentRoute, inits: Map<string, t.Node>, consumed: WeakSet<t.Node>, out: ClientRouteDraft[],
): void {
  const parent = parentRoute.path;
  consumed.add(array);
  for (let element of array.elements) {
    if (element?.type === 'Identifier') element = (inits.get(element.name) as t.Expression | undefined) ?? element;
    if (element?.type === 'SpreadElement' && element.argument.type === 'Identifier') {
      const spread = inits.get(element.argument.name);
      if (spread?.type === 'ArrayExpression') routesFromArray(spread, parentRoute, inits, consumed, out);
      continue;
    }
    if (element?.type !== 'ObjectExpression') continue;
    const props = new Map<string, t.Node>();
    for (const property of element.properties) {
      if (property.type === 'ObjectProperty' || property.type === 'ObjectMethod') {
        const name = propertyName(property.key);
        if (name) props.set(name, property.type === 'ObjectProperty' ? property.value : property);
      }
    }
    const ownPath = staticString(props.get('path'));
    const path = ownPath === null ? parent : joinRoutePath(parent, ownPath);
    const renders = RENDERS.map((name) => props.get(name)).filter((node): node is t.Node => node !== undefined);
    const here: ParentRoute = {
      path,
      ranges: [...parentRoute.ranges, ...renders.map(range)],
      sources: [...parentRoute.sources, ...renders.flatMap(lazySources)],
    };
    if ((ownPath !== null || props.has('index')) && renders.length) out.push(here);
    let children = props.get('children');
    if (children?.type === 'Identifier') children = inits.get(children.name);
    if (children?.type === 'ArrayExpression') routesFromArray(children, here, inits, consumed, out);
  }
}

/** True for an array that looks like route objects: some element has `path` or `index` and renders something. */
export function looksLikeRouteObjects(array: t.ArrayExpression): boolean {
  return array.elements.some((element) =>
    element?.type === 'ObjectExpression' &&
    element.properties.some((p) => p.type === 'ObjectProperty' && ['path', 'index'].includes(propertyName(p.key) ?? '')) &&
    element.properties.some((p) => (p.type === 'ObjectProperty' || p.type === 'ObjectMethod') && RENDERS.includes(propertyName(p.key) ?? '')));
}

export function isRouteElement(node: t.Node): node is t.JSXElement {
  if (node.type !== 'JSXElement') return false;
  const name = dottedName(node.openingElement.name) ?? '';
  return name === 'Route' || name.endsWith('.Route');
}

function jsxChildren(node: t.JSXElement | t.JSXFragment): t.Node[] {
  return node.children.flatMap((child) => {
    if (child.type === 'JSXElement' || child.type === 'JSXFragment') return [child];
    if (child.type === 'JSXExpressionContainer') return childNodes(child);
    return [];
  });
}

/** A `<Route>` tree (or the JSX holding one, such as `<Routes>`): every route in it, paths joined. */
export function routesFromJsx(node: t.Node, parentRoute: ParentRoute, consumed: WeakSet<t.Node>, out: ClientRouteDraft[]): void {
  if (node.type !== 'JSXElement' && node.type !== 'JSXFragment') {
    for (const child of childNodes(node)) routesFromJsx(child, parentRoute, consumed, out);
    return;
  }
  consumed.add(node);
  const parent = parentRoute.path;
  let here = parentRoute;
  if (isRouteElement(node)) {
    const attrs = new Map<string, t.JSXAttribute>();
    for (const attribute of node.openingElement.attributes) {
      if (attribute.type === 'JSXAttribute' && attribute.name.type === 'JSXIdentifier') attrs.set(attribute.name.name, attribute);
    }
    const pathValue = attrs.get('path')?.value;
    const ownPath = pathValue?.type === 'JSXExpressionContainer' ? staticString(pathValue.expression) : staticString(pathValue);
    const path = ownPath === null ? parent : joinRoutePath(parent, ownPath);
    const renders = RENDERS.map((name) => attrs.get(name)).filter((a): a is t.JSXAttribute => a !== undefined);
    const ranges = renders.map(range);
    // wouter and React Router 5 render a route's children: those elements are what the route shows.
    for (const child of node.children) if (child.type === 'JSXElement' && !isRouteElement(child)) ranges.push(range(child));
    here = { path, ranges: [...parentRoute.ranges, ...ranges], sources: [...parentRoute.sources, ...renders.flatMap(lazySources)] };
    if ((ownPath !== null || attrs.has('index')) && ranges.length) out.push(here);
  }
  for (const child of jsxChildren(node)) routesFromJsx(child, here, consumed, out);
}
