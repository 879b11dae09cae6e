#!/usr/bin/env node
/**
 * Writes test/support/file-durations.json, which orders a fresh clone's test run (slowest-first-sequencer.cjs), from
 * the results of a whole run: `npm run test:unit -- --json --outputFile=results.json`, then
 * `node test/support/record-durations.cjs results.json [the run's checkout, if another]`. Only the order matters, so a
 * run on a loaded machine does.
 */
const console = require('node:console');
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, resolve, sep } = require('node:path');
const process = require('node:process');

const [resultsFile, runRoot] = process.argv.slice(2);
if (resultsFile === undefined) {
  console.error('usage: node test/support/record-durations.cjs <jest --json output> [checkout the run ran in]');
  process.exit(2);
}
const root = dirname(require.resolve('../../package.json'));
const ranIn = resolve(runRoot ?? root);
const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
const seconds = {};
for (const file of [...results.testResults].sort((a, b) => (a.name < b.name ? -1 : 1))) {
  const ms = file.perfStats?.runtime ?? file.endTime - file.startTime;
  if (Number.isFinite(ms)) seconds[relative(ranIn, file.name).split(sep).join('/')] = Math.round(ms / 100) / 10;
}
const note = 'Seconds each test file took in one whole run, for the order of the next fresh clone\'s run: see slowest-first-sequencer.cjs.';
writeFileSync(join(root, 'test', 'support', 'file-durations.json'), `${JSON.stringify({ note, seconds }, null, 2)}\n`);
console.log(`${Object.keys(seconds).length} files recorded`);
