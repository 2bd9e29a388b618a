/** Prints the suite's closing line, `N passed, M failed`, after jest's own summary. */
const fs = require('node:fs');
const path = require('node:path');

/** Suites that run n8n in queue mode (main, webhook processor, workers); every other suite runs one n8n process. */
const QUEUE_MODE_SUITE = /queue-mode\.e2e\.ts$/;
const modeOf = (testFilePath) => (QUEUE_MODE_SUITE.test(testFilePath) ? 'queue' : 'single');

/** test/e2e/results/<n8n version>-queue.json: what the queue-mode suites of this run gave (none run: not written). */
function writeQueueResults(results) {
	const suites = results.testResults.filter((suite) => modeOf(suite.testFilePath) === 'queue');
	if (suites.length === 0) return;
	const n8nVersion = process.env.N8N_VERSION || '2.41.1';
	const record = {
		n8nVersion,
		mode: 'queue',
		suites: suites.length,
		passed: suites.reduce((n, suite) => n + suite.numPassingTests, 0),
		failed: suites.reduce((n, suite) => n + suite.numFailingTests + (suite.testExecError ? 1 : 0), 0),
		finishedAt: new Date().toISOString(),
	};
	const directory = path.join(__dirname, 'results');
	fs.mkdirSync(directory, { recursive: true });
	fs.writeFileSync(path.join(directory, `${n8nVersion}-queue.json`), `${JSON.stringify(record, null, 2)}\n`);
}

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed\n`);
		writeQueueResults(results);
	}
}

module.exports = SummaryReporter;
module.exports.modeOf = modeOf;
