/**
 * Ends a jest run with one plain line, `N passed, N failed`, that any CI system can read.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${results.numPassedTests} passed, ${results.numFailedTests + results.numRuntimeErrorTestSuites} failed${tail}\n`);
  }
}
module.exports = SummaryReporter;
