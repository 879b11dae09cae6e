/**
 * Jest's node environment, plus a record of the CPU each test file cost, for finding where the suite's time goes:
 * with JEST_CPU_FILE set (jest.config.js then uses this environment), it appends one JSON line per file with the
 * worker's own CPU and that of the children it reaped meanwhile (browsers, `qa` processes, tools), in seconds, read
 * from /proc/self/stat at the file's set-up and tear-down. What a file leaves running past its tear-down, and
 * MariaDB's share, are not counted. Summarize with `node test/support/cpu-summary.cjs "$JEST_CPU_FILE"`.
 */
const { appendFileSync, readFileSync } = require('node:fs');
const { relative } = require('node:path');
const process = require('node:process');
const NodeEnvironment = require('jest-environment-node').TestEnvironment;

/** utime, stime, cutime, cstime of this process, in seconds (clock ticks of 1/100 s on Linux). */
function times() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return { own: (utime + stime) / 100, children: (cutime + cstime) / 100 };
}

class CpuEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.file = relative(config.globalConfig.rootDir, context.testPath);
  }

  async setup() {
    this.started = { at: Date.now(), ...times() };
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    const now = times();
    const line = {
      file: this.file,
      own: Math.round((now.own - this.started.own) * 100) / 100,
      children: Math.round((now.children - this.started.children) * 100) / 100,
      wall: (Date.now() - this.started.at) / 1000,
      // The worker's own CPU since it started: its last line, less its files' `own`, is what it spent between files.
      worker: process.pid,
      workerOwn: now.own,
    };
    if (process.env.JEST_CPU_FILE) appendFileSync(process.env.JEST_CPU_FILE, `${JSON.stringify(line)}\n`);
  }
}

module.exports = CpuEnvironment;
