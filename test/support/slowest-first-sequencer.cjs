/**
 * Runs the slowest test files first, so that Jest's two workers finish together.
 *
 * Jest orders by each file's duration in its last run, but it keeps those in its cache, which a fresh clone (CI) does
 * not have: it then orders by file size, and the suite's slowest files are short ones (a 66-line file drives a browser
 * through three apps for over a minute). Started last, such a file kept one worker busy for a minute or more while
 * the other had nothing left. Here a file with no duration in the cache takes the one recorded in
 * test/support/file-durations.json (seconds, from a whole run: `node test/support/record-durations.cjs <jest --json
 * output>` writes it again); a file in neither, a new one, runs first, among the other unknown ones by size, as Jest
 * does.
 */
const { readFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const DURATIONS_FILE = join('test', 'support', 'file-durations.json');

class SlowestFirstSequencer extends Sequencer {
  /** @type {Map<string, Record<string, number>>} recorded seconds by file, per project root */
  recorded = new Map();

  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const { rootDir } = test.context.config;
    const seconds = this.durations(rootDir)[relative(rootDir, test.path).split(sep).join('/')];
    return seconds === undefined ? undefined : seconds * 1000;
  }

  durations(rootDir) {
    if (!this.recorded.has(rootDir)) this.recorded.set(rootDir, JSON.parse(readFileSync(join(rootDir, DURATIONS_FILE), 'utf8')).seconds);
    return this.recorded.get(rootDir);
  }
}

module.exports = SlowestFirstSequencer;
