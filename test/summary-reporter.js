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

  /**
   * KHOUMS_TEST_HANDLES=timers: the longest stalls of this (Jest's main) process's event loop in
   * the run's last 20 s, printed at the end: Jest gives a worker 500 ms to exit, timed by this loop.
   */
  onRunStart() {
    if (process.env.KHOUMS_TEST_HANDLES !== 'timers') return;
    this.stalls = [];
    let last = Date.now();
    this.lag = setInterval(() => {
      const now = Date.now();
      if (now - last > 150) this.stalls.push({ at: now, ms: now - last - 50 });
      last = now;
    }, 50);
    this.lag.unref();
  }

  onRunComplete(_contexts, results) {
    if (this.lag) {
      clearInterval(this.lag);
      const recent = this.stalls.filter((s) => s.at > Date.now() - 20_000);
      process.stdout.write(
        `\nMain process event-loop stalls over 100 ms in the last 20 s: ${
          recent.map((s) => `${s.ms} ms ${((Date.now() - s.at) / 1000).toFixed(1)} s ago`).join(', ') ||
          'none'
        }\n`,
      );
    }
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
