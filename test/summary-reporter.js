/** Prints the plain closing line `N passed, N failed, N skipped` after Jest's own summary. */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const passed = results.numPassedTests;
    // A suite that failed to run at all (a syntax error, a failing beforeAll) counts as a failure too.
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${results.numPendingTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
