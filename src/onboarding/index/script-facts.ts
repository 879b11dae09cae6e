/**
 * One pass over a script's AST: imports, top-level declarations, server routes and mounts, React Router routes,
 * navigation calls, and the markup it renders (JSX, or HTML in its strings), turned into the file's facts.
 */
import type * as t from '@babel/types';
import { dottedName, propertyName, staticString, walk } from './ast.js';
import { FACTS_VERSION, type DeclFact, type ImportFact, type LinkFact, type MountFact, type ScriptFacts, type ServerRouteFact } from './facts.js';
import { htmlMarkup } from './html-markup.js';
import { jsxMarkup } from './jsx-markup.js';
import { uiFactsOf, type MarkupElement } from './markup.js';
import { isRouteElement, looksLikeRouteObjects, ROOT_ROUTE, ROUTER_CALLS, routesFromArray, routesFromJsx, type ClientRouteDraft } from './react-router.js';
import {
  frameworkOfModule, mountOfCall, prefixOfCall, routerOfInit, serverRoutesOfCall, type ServerFileContext,
  type ServerFramework,
} from './server-routes.js';

const HTTP_VERBS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
/** Calls that navigate: `navigate('/x')`, `router.push('/x')`, `redirect('/x')`, `res.redirect(302, '/x')`. */
const NAVIGATIONS = new Set(['navigate', 'push', 'replace', 'redirect', 'permanentRedirect', 'assign']);

interface Ident { name: string; at: number }

function topLevelDecls(program: t.Program, inits: Map<string, t.Node>): { name: string; start: number; end: number }[] {
  const decls: { name: string; start: number; end: number }[] = [];
  const add = (name: string, node: t.Node) => decls.push({ name, start: node.start ?? 0, end: node.end ?? 0 });
  for (let statement of program.body as t.Node[]) {
    if (statement.type === 'ExportDefaultDeclaration') {
      const inner = statement.declaration;
      add('default', inner);
      if ((inner.type === 'FunctionDeclaration' || inner.type === 'ClassDeclaration') && inner.id) add(inner.id.name, inner);
      if (inner.type === 'Identifier') decls[decls.length - 1].name = 'default';
      continue;
    }
    if (statement.type === 'ExportNamedDeclaration' && statement.declaration) statement = statement.declaration;
    if ((statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') && statement.id) {
      add(statement.id.name, statement);
    } else if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) {
        if (declarator.id.type !== 'Identifier') continue;
        add(declarator.id.name, declarator);
        if (declarator.init) inits.set(declarator.id.name, declarator.init);
      }
    }
  }
  return decls;
}

function namesOfBinding(node: t.Node | null | undefined): string[] {
  if (!node) return [];
  if (node.type === 'Identifier') return [node.name];
  if (node.type === 'ObjectPattern') {
    return node.properties.flatMap((p) => (p.type === 'ObjectProperty' ? namesOfBinding(p.value) : namesOfBinding(p.argument)));
  }
  return [];
}

function exportedVerbsOf(node: t.ExportNamedDeclaration): string[] {
  const names: string[] = [];
  const declaration = node.declaration;
  if (declaration?.type === 'FunctionDeclaration' && declaration.id) names.push(declaration.id.name);
  if (declaration?.type === 'VariableDeclaration') names.push(...declaration.declarations.flatMap((d) => namesOfBinding(d.id)));
  for (const specifier of node.specifiers) {
    if (specifier.type === 'ExportSpecifier') names.push(propertyName(specifier.exported) ?? '');
  }
  return names.filter((name) => HTTP_VERBS.has(name));
}

function navigationOf(call: t.CallExpression): string | null {
  const callee = dottedName(call.callee);
  if (!callee) return null;
  const name = callee.slice(callee.lastIndexOf('.') + 1);
  if (!NAVIGATIONS.has(name) || (name === 'assign' && !callee.endsWith('location.assign'))) return null;
  const first = call.arguments[0];
  const target = first?.type === 'NumericLiteral' ? staticString(call.arguments[1]) : staticString(first);
  return target && (target.startsWith('/') || target.startsWith('.') || /^https?:/.test(target)) ? target : null;
}

/** A string worth handing to the HTML parser: some `<` opens a tag (`<a`, `<!doctype`), and a `>` follows. */
function looksLikeHtml(text: string): boolean {
  for (let open = text.indexOf('<'); open >= 0; open = text.indexOf('<', open + 1)) {
    const next = text.charCodeAt(open + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a) return text.includes('>', open);
  }
  return false;
}

/** Sorted identifier occurrences, queried by range: the names a declaration or a handler uses. */
function refsIn(idents: Ident[], known: Set<string>, start: number, end: number, self?: string): string[] {
  let lo = 0;
  let hi = idents.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (idents[mid].at < start) lo = mid + 1;
    else hi = mid;
  }
  const refs = new Set<string>();
  for (let i = lo; i < idents.length && idents[i].at < end; i++) {
    const name = idents[i].name;
    if (name !== self && known.has(name)) refs.add(name);
  }
  return [...refs];
}

export function scriptFacts(program: t.Program): ScriptFacts {
  const inits = new Map<string, t.Node>();
  const declRanges = topLevelDecls(program, inits);
  const imports: ImportFact[] = [];
  const importedFrameworks = new Map<string, ServerFramework>();
  const ctx: ServerFileContext = { framework: null, receivers: new Map() };
  const idents: Ident[] = [];
  const markup: MarkupElement[] = [];
  const converted = new WeakSet<t.Node>();
  const routeSeen = new WeakSet<t.Node>();
  const routeArrays: t.ArrayExpression[] = [];
  const links: LinkFact[] = [];
  const serverRoutes: Omit<ServerRouteFact, 'refs'>[] = [];
  const mounts: MountFact[] = [];
  const routerPrefixes: { receiver: string; prefix: string }[] = [];
  const clientDrafts: ClientRouteDraft[] = [];
  const exportedVerbs = new Set<string>();
  const methodChecks = new Set<string>();

  // Imports first: whether a file is a server's decides how its calls are read.
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type') continue;
    const names = statement.specifiers.map((s) => s.local.name);
    imports.push({ source: statement.source.value, names });
    const framework = frameworkOfModule(statement.source.value);
    if (framework) {
      ctx.framework = framework;
      for (const name of names) importedFrameworks.set(name, framework);
    }
  }

  walk(program, (node, parent) => {
    switch (node.type) {
      case 'Identifier':
        idents.push({ name: node.name, at: node.start ?? 0 });
        break;
      case 'JSXIdentifier':
        if (/^[A-Z]/.test(node.name)) idents.push({ name: node.name, at: node.start ?? 0 });
        break;
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
        if (node.source && node.exportKind !== 'type') imports.push({ source: node.source.value, names: [] });
        if (node.type === 'ExportNamedDeclaration') for (const verb of exportedVerbsOf(node)) exportedVerbs.add(verb);
        break;
      case 'VariableDeclarator': {
        if (node.init?.type === 'CallExpression' && node.init.callee.type === 'Identifier' && node.init.callee.name === 'require') {
          const source = staticString(node.init.arguments[0]);
          const framework = source ? frameworkOfModule(source) : null;
          if (framework) {
            ctx.framework = framework;
            for (const name of namesOfBinding(node.id)) importedFrameworks.set(name, framework);
          }
        }
        const router = node.init && node.id.type === 'Identifier' ? routerOfInit(node.init, importedFrameworks) : null;
        if (router && node.id.type === 'Identifier') {
          ctx.receivers.set(node.id.name, router.framework);
          if (router.prefix) routerPrefixes.push({ receiver: node.id.name, prefix: router.prefix });
        }
        break;
      }
      case 'CallExpression': {
        if (node.callee.type === 'Import' || (node.callee.type === 'Identifier' && node.callee.name === 'require')) {
          const source = staticString(node.arguments[0]);
          const names = parent?.type === 'VariableDeclarator' ? namesOfBinding(parent.id) : [];
          if (source) imports.push({ source, names });
          break;
        }
        serverRoutes.push(...serverRoutesOfCall(node, ctx));
        const mount = mountOfCall(node);
        if (mount) mounts.push(mount);
        const prefix = prefixOfCall(node);
        if (prefix) routerPrefixes.push(prefix);
        const link = navigationOf(node);
        if (link) links.push({ to: link, at: node.start ?? 0 });
        const callee = dottedName(node.callee);
        if (callee && ROUTER_CALLS.has(callee.slice(callee.lastIndexOf('.') + 1))) {
          let first: t.Node | undefined = node.arguments[0];
          if (first?.type === 'Identifier') first = inits.get(first.name) ?? first;
          if (first?.type === 'ArrayExpression') routesFromArray(first, ROOT_ROUTE, inits, routeSeen, clientDrafts);
          else if (first && (first.type === 'JSXElement' || first.type === 'JSXFragment')) routesFromJsx(first, ROOT_ROUTE, routeSeen, clientDrafts);
        }
        break;
      }
      case 'ArrayExpression':
        // Decided after the walk: a router call later in the file may nest this array under a parent route.
        if (looksLikeRouteObjects(node)) routeArrays.push(node);
        break;
      case 'JSXElement':
      case 'JSXFragment':
        if (isRouteElement(node) && !routeSeen.has(node)) routesFromJsx(node, ROOT_ROUTE, routeSeen, clientDrafts);
        // JSX nested in an element was converted with it: only outermost elements are roots.
        if (!converted.has(node)) markup.push(jsxMarkup(node, converted));
        break;
      case 'StringLiteral':
      case 'TemplateLiteral': {
        if (parent?.type === 'JSXAttribute' || parent?.type === 'ImportDeclaration') break;
        const text = staticString(node);
        if (text && looksLikeHtml(text)) markup.push(...htmlMarkup(text, node.start ?? 0));
        break;
      }
      case 'AssignmentExpression': {
        const target = dottedName(node.left);
        const to = staticString(node.right);
        if (target && to && (target.endsWith('location.href') || target.endsWith('location')) && to.startsWith('/')) {
          links.push({ to, at: node.start ?? 0 });
        }
        break;
      }
      case 'BinaryExpression':
        if ((node.operator === '===' || node.operator === '==') && node.left.type === 'MemberExpression' && propertyName(node.left.property) === 'method') {
          const verb = staticString(node.right);
          if (verb && HTTP_VERBS.has(verb.toUpperCase())) methodChecks.add(verb.toUpperCase());
        }
        break;
      case 'SwitchStatement':
        if (node.discriminant.type === 'MemberExpression' && propertyName(node.discriminant.property) === 'method') {
          for (const test of node.cases) {
            const verb = staticString(test.test);
            if (verb && HTTP_VERBS.has(verb.toUpperCase())) methodChecks.add(verb.toUpperCase());
          }
        }
        break;
      default:
        break;
    }
  });

  for (const array of routeArrays) if (!routeSeen.has(array)) routesFromArray(array, ROOT_ROUTE, inits, routeSeen, clientDrafts);
  idents.sort((a, b) => a.at - b.at);
  const known = new Set<string>([...imports.flatMap((i) => i.names), ...declRanges.map((d) => d.name)]);
  const decls: DeclFact[] = declRanges.map((d) => ({ ...d, refs: refsIn(idents, known, d.start, d.end, d.name) }));
  const ui = uiFactsOf(markup);
  return {
    v: FACTS_VERSION,
    kind: 'script',
    imports,
    decls,
    exportedVerbs: [...exportedVerbs],
    methodChecks: [...methodChecks],
    serverRoutes: serverRoutes.map((route) => ({ ...route, refs: refsIn(idents, known, route.start, route.end) })),
    mounts,
    routerPrefixes,
    clientRoutes: clientDrafts.map((draft) => ({
      path: draft.path,
      ranges: draft.ranges,
      refs: [...new Set(draft.ranges.flatMap(([start, end]) => refsIn(idents, known, start, end)))],
      sources: draft.sources,
    })),
    forms: ui.forms,
    links: [...ui.links, ...links],
    testIds: ui.testIds,
  };
}
