/**
 * CPU time on Linux from /proc, to tell what a phase of a bench cost from how long it took: this process and its
 * descendants (the browser and its renderers), the database server, and the whole machine (whatever else runs on
 * it). Elsewhere every figure is NaN.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

export interface CpuSample {
  /** Seconds of CPU of this process and its descendants, including descendants that have exited. */
  tree: number;
  /** Seconds of CPU of this Node process alone (the service, or bare Playwright's client and server): part of `tree`. */
  node: number;
  /** Seconds of CPU of the MySQL/MariaDB server processes on this machine (shared with anyone else using them). */
  database: number;
  /** Seconds the machine's CPUs were busy, all processes. */
  machine: number;
  /** `tree` split by what the processes are (seconds). */
  kinds: Record<ProcessKind, number>;
  at: number;
}

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime + cutime + cstime, in ticks: a process's own time and its waited-for children's. */
  ticks: number;
  /** cutime + cstime alone: children that exited and were waited for (a closed context's renderer, in a browser). */
  reapedTicks: number;
}

/**
 * What a process of the tree is, for `CpuSample.kinds`: this Node process, or a Chromium process by its `--type`
 * (the browser process has none). A renderer exits with its context; its CPU then shows in its parent's (the
 * zygote's) waited-for children's time, which is counted as `renderer`.
 */
export type ProcessKind = 'node' | 'browser' | 'renderer' | 'gpu' | 'utility' | 'zygote' | 'other';
export const PROCESS_KINDS: readonly ProcessKind[] = ['node', 'browser', 'renderer', 'gpu', 'utility', 'zygote', 'other'];
const kindOfPid = new Map<number, ProcessKind>();

function kindOf(pid: number): ProcessKind {
  let kind = kindOfPid.get(pid);
  if (kind) return kind;
  if (pid === process.pid) kind = 'node';
  else {
    let args = '';
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return 'other';
    }
    // Chromium rewrites its processes' titles, so their arguments may be separated by spaces instead of NULs.
    const type = /(?:^|[\0 ])--type=([a-z-]+)/.exec(args)?.[1];
    if (type === undefined) kind = /chrom[^\0 ]*$/i.test(args.split(/[\0 ]/)[0] ?? '') ? 'browser' : 'other';
    else if (type === 'renderer') kind = 'renderer';
    else if (type === 'gpu-process') kind = 'gpu';
    else if (type === 'utility') kind = 'utility';
    else if (type === 'zygote') kind = 'zygote';
    else kind = 'other';
  }
  // A process just forked by the zygote reads as a zygote, or with no arguments at all, until it takes its title.
  if (kind !== 'zygote' && kind !== 'other') kindOfPid.set(pid, kind);
  return kind;
}

function readStat(pid: string): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself hold spaces or parentheses.
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is the state (field 3); utime..cstime are fields 14..17.
    const reapedTicks = Number(fields[13]) + Number(fields[14]);
    return { pid: Number(pid), ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) + reapedTicks, reapedTicks };
  } catch {
    return undefined; // gone meanwhile
  }
}

function machineBusyTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [, user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  void idle;
  void iowait;
  return user! + nice! + system! + irq! + softirq! + (steal ?? 0);
}

/** Seconds of CPU of this Node process (all its threads). */
export function nodeSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** The MySQL/MariaDB server's process names. */
export const MYSQL_SERVERS = ['mariadbd', 'mysqld'] as const;

function allStats(): ProcStat[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(readStat).filter((stat) => stat !== undefined);
}

function secondsOf(stats: readonly ProcStat[], comms: readonly string[]): number {
  return stats.filter((stat) => comms.includes(stat.comm)).reduce((sum, stat) => sum + stat.ticks, 0) / TICKS_PER_SECOND;
}

/** Seconds of CPU of the processes named one of `comms` (a database server's: `MYSQL_SERVERS`, `postgres`). */
export function serverSeconds(comms: readonly string[]): number {
  return secondsOf(allStats(), comms);
}

export function sampleCpu(): CpuSample {
  try {
    const stats = allStats();
    const children = new Map<number, ProcStat[]>();
    for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
    let tree = 0;
    const kinds = noKinds();
    const self = stats.find((stat) => stat.pid === process.pid);
    const pending = self ? [self] : [];
    while (pending.length > 0) {
      const stat = pending.pop()!;
      tree += stat.ticks;
      const kind = kindOf(stat.pid);
      kinds[kind] += (stat.ticks - stat.reapedTicks) / TICKS_PER_SECOND;
      // This Node process's waited-for children are its own short-lived helpers, not renderers.
      kinds[kind === 'node' ? 'node' : 'renderer'] += stat.reapedTicks / TICKS_PER_SECOND;
      pending.push(...(children.get(stat.pid) ?? []));
    }
    return { tree: tree / TICKS_PER_SECOND, node: nodeSeconds(), database: secondsOf(stats, MYSQL_SERVERS), machine: machineBusyTicks() / TICKS_PER_SECOND, kinds, at: performance.now() };
  } catch {
    return { tree: Number.NaN, node: nodeSeconds(), database: Number.NaN, machine: Number.NaN, kinds: noKinds(Number.NaN), at: performance.now() };
  }
}

function noKinds(value = 0): Record<ProcessKind, number> {
  return Object.fromEntries(PROCESS_KINDS.map((kind) => [kind, value])) as Record<ProcessKind, number>;
}

export interface CpuUse {
  /** CPU seconds of this process tree (node + browser). */
  tree: number;
  /** CPU seconds of this Node process alone; the rest of `tree` is the browser's. */
  node: number;
  database: number;
  /** CPU seconds of everything else on the machine (other people's work). */
  others: number;
  /** `tree` by kind of process (CPU seconds). */
  kinds: Record<ProcessKind, number>;
  wallSeconds: number;
}

export const NO_CPU: CpuUse = { tree: 0, node: 0, database: 0, others: 0, kinds: noKinds(), wallSeconds: 0 };

function kindsBy(a: Record<ProcessKind, number>, b: Record<ProcessKind, number>, sign: 1 | -1): Record<ProcessKind, number> {
  return Object.fromEntries(PROCESS_KINDS.map((kind) => [kind, a[kind] + sign * b[kind]])) as Record<ProcessKind, number>;
}

/** The CPU of two spans together (the spans of a phase between which something else ran). */
export function addCpu(a: CpuUse, b: CpuUse): CpuUse {
  return {
    tree: a.tree + b.tree,
    node: a.node + b.node,
    database: a.database + b.database,
    others: a.others + b.others,
    kinds: kindsBy(a.kinds, b.kinds, 1),
    wallSeconds: a.wallSeconds + b.wallSeconds,
  };
}

export function cpuBetween(before: CpuSample, after: CpuSample): CpuUse {
  const tree = after.tree - before.tree;
  const database = after.database - before.database;
  return {
    tree,
    node: after.node - before.node,
    database,
    others: Math.max(0, after.machine - before.machine - tree - database),
    kinds: kindsBy(after.kinds, before.kinds, -1),
    wallSeconds: (after.at - before.at) / 1000,
  };
}
