#!/usr/bin/env node
/** Prints the files of a JEST_CPU_FILE record (cpu-environment.cjs) by CPU, most first, and the totals. */
const console = require('node:console');
const { readFileSync } = require('node:fs');
const process = require('node:process');

const file = process.argv[2];
if (file === undefined) {
  console.error('usage: node test/support/cpu-summary.cjs <JEST_CPU_FILE> [how many files, 40]');
  process.exit(2);
}
const rows = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
rows.sort((a, b) => b.own + b.children - (a.own + a.children));
const sum = (pick) => rows.reduce((total, row) => total + pick(row), 0);
console.log(`${rows.length} files: ${sum((r) => r.own).toFixed(0)} s of the workers' own CPU, ${sum((r) => r.children).toFixed(0)} s of their children's`);
const workers = new Map(rows.filter((row) => row.worker !== undefined).map((row) => [row.worker, 0]));
for (const row of rows) if (row.worker !== undefined) workers.set(row.worker, Math.max(workers.get(row.worker), row.workerOwn));
if (workers.size > 0) {
  const total = [...workers.values()].reduce((sum, value) => sum + value, 0);
  console.log(`${workers.size} workers: ${total.toFixed(0)} s of their own CPU in all, ${(total - sum((r) => r.own)).toFixed(0)} s of it outside the files`);
}
console.log('  cpu    own  child   wall  file');
for (const row of rows.slice(0, Number(process.argv[3] ?? 40))) {
  const cells = [row.own + row.children, row.own, row.children, row.wall].map((value) => value.toFixed(1).padStart(6));
  console.log(`${cells.join(' ')}  ${row.file}`);
}
