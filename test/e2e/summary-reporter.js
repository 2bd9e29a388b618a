/** Prints the suite's closing line, `N passed, M failed`, after jest's own summary. */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed\n`);
	}
}

module.exports = SummaryReporter;
