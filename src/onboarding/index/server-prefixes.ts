/**
 * The path prefixes a server router is mounted under, across files: `app.use('/api', api)` in one file and
 * `api.use('/users', users)` in another put `users`' routes under `/api/users`. A router mounted nowhere serves
 * from the root; one mounted twice serves under both prefixes.
 */
import type { ScriptFacts } from './facts.js';
import type { ImportResolver } from './resolve-import.js';

/** Prefixes per router at most: a mount cycle or a combinatorial tree cannot blow up the index. */
const MAX_PREFIXES = 16;

export function joinServerPath(prefix: string, path: string): string {
  const joined = `${prefix.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 ? joined.replace(/\/+$/, '') : '/';
}

interface IncomingMount { from: string; receiver: string; prefix: string }

export type PrefixesOf = (file: string, receiver: string) => string[];

export function createServerPrefixes(scripts: Map<string, ScriptFacts>, resolve: ImportResolver): PrefixesOf {
  const incoming = new Map<string, IncomingMount[]>();
  for (const [file, facts] of scripts) {
    for (const mount of facts.mounts) {
      let target: string | null = null;
      if ('source' in mount.target) target = resolve(file, mount.target.source);
      else {
        const name = mount.target.name;
        const imported = facts.imports.find((i) => i.names.includes(name));
        if (imported) target = resolve(file, imported.source);
      }
      if (target && target !== file) {
        const list = incoming.get(target) ?? [];
        list.push({ from: file, receiver: mount.receiver, prefix: mount.prefix });
        incoming.set(target, list);
      }
    }
  }
  const memo = new Map<string, string[]>();
  const prefixesOf = (file: string, receiver: string, seen: Set<string>): string[] => {
    const key = `${file}\0${receiver}`;
    const cached = memo.get(key);
    if (cached) return cached;
    if (seen.has(key)) return [];
    seen.add(key);
    const facts = scripts.get(file);
    const own = facts?.routerPrefixes.find((p) => p.receiver === receiver)?.prefix ?? '';
    const found: string[] = [];
    const local = facts?.mounts.filter((m) => 'name' in m.target && m.target.name === receiver && m.receiver !== receiver) ?? [];
    for (const mount of local) {
      for (const outer of prefixesOf(file, mount.receiver, seen)) found.push(joinServerPath(outer, mount.prefix));
    }
    if (local.length === 0) {
      for (const mount of incoming.get(file) ?? []) {
        for (const outer of prefixesOf(mount.from, mount.receiver, seen)) found.push(joinServerPath(outer, mount.prefix));
      }
    }
    const bases = found.length ? [...new Set(found)].slice(0, MAX_PREFIXES) : [''];
    const result = bases.map((base) => (own ? joinServerPath(base, own) : base));
    memo.set(key, result);
    return result;
  };
  return (file, receiver) => prefixesOf(file, receiver, new Set());
}
