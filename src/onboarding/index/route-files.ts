/**
 * What stands behind a route: whole files (a page and what it imports, transitively, nearest first, bounded) and,
 * in a file that declares many routes (a router, an Express app), only the parts a route's handler or element uses.
 */
import type { IndexedForm } from '../model.js';
import type { ScriptFacts, UiFacts } from './facts.js';
import type { IndexLimits } from './limits.js';
import type { ImportResolver } from './resolve-import.js';

export interface RouteContent {
  files: string[];
  forms: IndexedForm[];
  links: string[];
  testIds: string[];
}

/** A part of a declaring file: its ranges, and the names used there (local declarations or imports). */
export interface FilePart {
  file: string;
  ranges: [number, number][];
  refs: string[];
}

export interface RouteFilesDeps {
  scripts: Map<string, ScriptFacts>;
  ui: Map<string, UiFacts>;
  resolve: ImportResolver;
  limits: Pick<IndexLimits, 'maxRouteFiles' | 'maxImportDepth'>;
}

export function createRouteContent(deps: RouteFilesDeps) {
  const { scripts, ui, resolve, limits } = deps;
  // Each file's imports are resolved once for all routes: a shared component sits behind hundreds of them.
  const resolvedImports = new Map<string, string[]>();
  const importsOf = (file: string): string[] => {
    let targets = resolvedImports.get(file);
    if (!targets) {
      targets = [];
      for (const imported of scripts.get(file)?.imports ?? []) {
        const target = resolve(file, imported.source);
        if (target) targets.push(target);
      }
      resolvedImports.set(file, targets);
    }
    return targets;
  };

  /** A declaring file's part, widened to the local declarations it uses; the imported modules it uses. */
  function expandPart(part: FilePart): { ranges: [number, number][]; modules: string[] } {
    const facts = scripts.get(part.file);
    if (!facts) return { ranges: part.ranges, modules: [] };
    const ranges = [...part.ranges];
    const modules: string[] = [];
    const seen = new Set<string>();
    const queue = [...part.refs];
    while (queue.length) {
      const name = queue.shift()!;
      if (seen.has(name)) continue;
      seen.add(name);
      for (const decl of facts.decls) {
        if (decl.name !== name) continue;
        ranges.push([decl.start, decl.end]);
        queue.push(...decl.refs);
      }
      for (const imported of facts.imports) {
        if (!imported.names.includes(name)) continue;
        const target = resolve(part.file, imported.source);
        if (target) modules.push(target);
      }
    }
    return { ranges, modules };
  }

  /** `primary` files first, then what they import, breadth first, within the depth and count bounds. */
  function closure(primary: string[]): string[] {
    const files: string[] = [];
    const seen = new Set<string>();
    let level = primary.filter((file) => !seen.has(file) && seen.add(file));
    for (let depth = 0; level.length && files.length < limits.maxRouteFiles; depth++) {
      const next: string[] = [];
      for (const file of level) {
        if (files.length >= limits.maxRouteFiles) break;
        files.push(file);
        if (depth >= limits.maxImportDepth) continue;
        for (const target of importsOf(file)) {
          if (!seen.has(target)) {
            seen.add(target);
            next.push(target);
          }
        }
      }
      level = next;
    }
    return files;
  }

  /** Whole files (`whole`, with their imports) plus parts of declaring files, with their markup. */
  return function routeContent(whole: string[], parts: FilePart[]): RouteContent {
    const expanded = parts.map((part) => ({ part, ...expandPart(part) }));
    const importedWhole = closure([...whole, ...expanded.flatMap((e) => e.modules)]);
    const files = [...new Set([...parts.map((p) => p.file), ...importedWhole])];
    const forms: IndexedForm[] = [];
    const formsSeen = new Set<string>();
    const links = new Set<string>();
    const testIds = new Set<string>();
    const take = (file: string, inside: (at: number) => boolean) => {
      const facts = ui.get(file);
      if (!facts) return;
      for (const { at, ...form } of facts.forms) {
        if (inside(at) && !formsSeen.has(`${file}:${at}`)) {
          formsSeen.add(`${file}:${at}`);
          forms.push({ file, ...form });
        }
      }
      for (const link of facts.links) if (inside(link.at)) links.add(link.to);
      for (const testId of facts.testIds) if (inside(testId.at)) testIds.add(testId.id);
    };
    for (const { part, ranges } of expanded) {
      if (!importedWhole.includes(part.file)) take(part.file, (at) => ranges.some(([start, end]) => at >= start && at < end));
    }
    for (const file of importedWhole) take(file, () => true);
    return { files, forms, links: [...links], testIds: [...testIds] };
  };
}
