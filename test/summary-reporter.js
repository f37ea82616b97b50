/**
 * After Jest's own summary: the slowest files of the run with their times (where the suite's time
 * goes), then the plain closing line `N passed, N failed, N skipped`, always the last line.
 * SLOWEST_FILES sets how many files are listed (20; 0 lists none).
 */
const { relative } = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.slowest = Number(process.env.SLOWEST_FILES ?? 20);
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((r) => ({ path: relative(this.rootDir, r.testFilePath), ms: r.perfStats.end - r.perfStats.start }))
      .filter((f) => f.ms > 0)
      .sort((a, b) => b.ms - a.ms);
    if (this.slowest > 0 && files.length > 0) {
      const total = files.reduce((s, f) => s + f.ms, 0);
      const lines = files
        .slice(0, this.slowest)
        .map((f) => `${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.path}`);
      process.stdout.write(
        `\nSlowest ${Math.min(this.slowest, files.length)} of ${files.length} files ` +
          `(${(total / 1000).toFixed(0)} s of files over the run's workers):\n${lines.join('\n')}\n`,
      );
    }
    const passed = results.numPassedTests;
    // A suite that failed to run at all (a syntax error, a failing beforeAll) counts as a failure too.
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${results.numPendingTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
