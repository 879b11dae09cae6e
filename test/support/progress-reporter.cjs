/**
 * A Jest reporter for CI: after every test file it rewrites JEST_PROGRESS_FILE with the counts so far (the same
 * fields as Jest's --json output that .ci/run reads). Jest writes its --outputFile only when the whole run ends, so a
 * run killed by CI's guard would otherwise report nothing of what finished. Does nothing without the variable.
 * CommonJS: Jest loads reporters outside its ESM module system.
 */
const fs = require('node:fs');
const { env } = require('node:process');

class ProgressReporter {
  constructor() {
    this.file = env.JEST_PROGRESS_FILE;
  }

  onTestResult(_test, testResult, aggregated) {
    if (!this.file) return;
    const counts = {
      numTotalTests: aggregated.numTotalTests,
      numPassedTests: aggregated.numPassedTests,
      numFailedTests: aggregated.numFailedTests,
      numPendingTests: aggregated.numPendingTests,
      numTotalTestSuites: aggregated.numTotalTestSuites,
      numRuntimeErrorTestSuites: aggregated.numRuntimeErrorTestSuites,
      lastFile: testResult.testFilePath,
      writtenAt: new Date().toISOString(),
    };
    const temporary = `${this.file}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(counts));
    fs.renameSync(temporary, this.file);
  }
}

module.exports = ProgressReporter;
