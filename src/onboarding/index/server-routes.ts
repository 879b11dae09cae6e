/**
 * Express and Koa route declarations: `app.get('/x', handler)`, `router.route('/x').get(h).post(h)`, koa-router's
 * named routes (`router.get('name', '/x', h)`), mounts (`app.use('/api', apiRouter)`, `router.use('/p', r.routes())`)
 * and router prefixes (`new Router({ prefix })`, `router.prefix('/x')`).
 */
import type * as t from '@babel/types';
import { dottedName, propertyName, staticString } from './ast.js';
import type { MountFact, ServerRouteFact } from './facts.js';

export const SERVER_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options', 'all']);
const KOA_MODULES = new Set(['koa', '@koa/router', 'koa-router', 'koa-tree-router']);
const EXPRESS_MODULES = new Set(['express', 'router']);
/**
 * Receivers named like a router: accepted even in a file that imports no server framework (a router passed in).
 * Not `api` or `client`: in front-end code those are HTTP clients (`api.get('/users', config)`).
 */
const ROUTER_NAME = /(^|\.)(app|router|server|routes?|[a-z]*Router)$/i;

export type ServerFramework = 'express' | 'koa';

export function frameworkOfModule(source: string): ServerFramework | null {
  if (KOA_MODULES.has(source)) return 'koa';
  return EXPRESS_MODULES.has(source) ? 'express' : null;
}

/** Handlers are functions or names of functions, never an options object or a literal (`axios.get(url, config)`). */
function isHandler(node: t.Node): boolean {
  return ['ArrowFunctionExpression', 'FunctionExpression', 'Identifier', 'MemberExpression', 'CallExpression'].includes(node.type);
}

function isPath(value: string | null): value is string {
  return value !== null && (value.startsWith('/') || value === '*');
}

/** `/*splat` (Express 5) and `(.*)` are both "anything below": written `*` as the model says. */
export function normalServerPath(value: string): string {
  const path = value.replace(/\/\*[A-Za-z_]\w*/g, '/*').replace(/\(\.\*\)/g, '*');
  return path === '*' ? '/*' : path;
}

export interface ServerFileContext {
  /** The server framework the file imports, if any. */
  framework: ServerFramework | null;
  /** Routers and apps created in the file (`const r = express.Router()`), by name. */
  receivers: Map<string, ServerFramework>;
}

function acceptedReceiver(receiver: string, ctx: ServerFileContext): ServerFramework | null {
  const known = ctx.receivers.get(receiver);
  if (known) return known;
  if (ctx.framework) return ctx.framework;
  return ROUTER_NAME.test(receiver) ? 'express' : null;
}

/** The path and receiver of `x.route('/p')` at the start of a chain of verb calls, if that is what `node` is. */
function routeChain(node: t.Node): { receiver: string; path: string; start: number } | null {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return null;
  const method = propertyName(node.callee.property);
  if (method === 'route') {
    const path = staticString(node.arguments[0]);
    const receiver = dottedName(node.callee.object);
    return isPath(path) && receiver ? { receiver, path, start: node.start ?? 0 } : null;
  }
  return method && SERVER_VERBS.has(method) ? routeChain(node.callee.object) : null;
}

export function serverRoutesOfCall(call: t.CallExpression, ctx: ServerFileContext): Omit<ServerRouteFact, 'refs'>[] {
  if (call.callee.type !== 'MemberExpression') return [];
  const verb = propertyName(call.callee.property);
  if (!verb || !SERVER_VERBS.has(verb)) return [];
  const method = verb === 'del' ? 'DELETE' : verb.toUpperCase();
  const args = call.arguments;
  const last = args[args.length - 1];
  if (!last || !isHandler(last)) return [];
  const start = call.start ?? 0;
  const end = call.end ?? 0;
  const chain = routeChain(call.callee.object);
  if (chain) {
    const framework = acceptedReceiver(chain.receiver, ctx);
    return framework ? [{ framework, receiver: chain.receiver, path: normalServerPath(chain.path), methods: [method], start, end }] : [];
  }
  const receiver = dottedName(call.callee.object);
  if (!receiver || args.length < 2) return [];
  const framework = acceptedReceiver(receiver, ctx);
  if (!framework) return [];
  const first = staticString(args[0]);
  const paths = isPath(first)
    ? [first]
    : args[0].type === 'ArrayExpression'
      ? args[0].elements.map((element) => staticString(element)).filter(isPath)
      : args.length >= 3 && isPath(staticString(args[1])) ? [staticString(args[1])!] : [];
  return paths.map((path) => ({ framework, receiver, path: normalServerPath(path), methods: [method], start, end }));
}

function mountTarget(node: t.Node): MountFact['target'] | null {
  if (node.type === 'Identifier') return { name: node.name };
  if (node.type === 'MemberExpression') return node.object.type === 'Identifier' ? { name: node.object.name } : mountTarget(node.object);
  if (node.type !== 'CallExpression') return null;
  if (node.callee.type === 'Identifier' && node.callee.name === 'require') {
    const source = staticString(node.arguments[0]);
    return source ? { source } : null;
  }
  // `router.routes()`, `createRouter(deps)`: the router is the callee's object or the function's module.
  return mountTarget(node.callee);
}

/** `receiver.use('/prefix', …, target)` or `receiver.use(target)`. */
export function mountOfCall(call: t.CallExpression): MountFact | null {
  if (call.callee.type !== 'MemberExpression' || propertyName(call.callee.property) !== 'use') return null;
  const receiver = dottedName(call.callee.object);
  const args = call.arguments;
  if (!receiver || args.length === 0) return null;
  const first = staticString(args[0]);
  const prefix = isPath(first) ? first : '';
  const target = mountTarget(args[args.length - 1]);
  if (!target || (prefix && args.length < 2)) return null;
  return { receiver, prefix, target };
}

/** `router.prefix('/x')` (koa-router). */
export function prefixOfCall(call: t.CallExpression): { receiver: string; prefix: string } | null {
  if (call.callee.type !== 'MemberExpression' || propertyName(call.callee.property) !== 'prefix') return null;
  const receiver = dottedName(call.callee.object);
  const prefix = staticString(call.arguments[0]);
  return receiver && isPath(prefix) ? { receiver, prefix } : null;
}

/**
 * What a declarator creates: `express()`, `express.Router()`, `Router()`, `new Koa()`, `new Router({ prefix })`.
 * `imported` maps local names to the server framework of the module they come from.
 */
export function routerOfInit(
  init: t.Node, imported: Map<string, ServerFramework>,
): { framework: ServerFramework; prefix: string | null } | null {
  if (init.type !== 'CallExpression' && init.type !== 'NewExpression') return null;
  const callee = dottedName(init.callee);
  if (!callee) return null;
  const root = callee.split('.')[0];
  const framework = imported.get(root) ?? (init.type === 'NewExpression' && /Router$/.test(callee) ? 'koa' : null);
  if (!framework) return null;
  const options = init.arguments[0];
  let prefix: string | null = null;
  if (options?.type === 'ObjectExpression') {
    for (const property of options.properties) {
      if (property.type === 'ObjectProperty' && propertyName(property.key) === 'prefix') prefix = staticString(property.value);
    }
  }
  return { framework, prefix };
}
