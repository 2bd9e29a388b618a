/**
 * Prints the suite's closing line, `N passed, M failed` (naming the n8n version), after jest's own summary, and
 * records the run for the README's compatibility table in test/e2e/results/<n8n version>-<mode>.json:
 * `{ n8nVersion, mode: "single" | "queue", suites, passed, failed, finishedAt }` (scripts/compat-table.ts reads it).
 * Only whole runs are recorded (the table speaks of the whole suite): the runner sets PROSPECTING_E2E_RECORD=1 when
 * nothing was filtered on its command line. The mode comes from PROSPECTING_E2E_MODE, "single" by default.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

class SummaryReporter {
	constructor(globalConfig) {
		this.globalConfig = globalConfig;
	}

	onRunComplete(_contexts, results) {
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const version = process.env.N8N_VERSION;
		const mode = process.env.PROSPECTING_E2E_MODE || 'single';
		process.stdout.write(`\n${version ? `n8n ${version} (${mode}): ` : ''}${results.numPassedTests} passed, ${failed} failed\n`);
		if (!version || process.env.PROSPECTING_E2E_RECORD !== '1' || this.globalConfig?.testNamePattern) return;
		const record = {
			n8nVersion: version,
			mode,
			suites: results.numTotalTestSuites,
			passed: results.numPassedTests,
			failed,
			finishedAt: new Date().toISOString(),
		};
		const directory = path.join(__dirname, 'results');
		mkdirSync(directory, { recursive: true });
		writeFileSync(path.join(directory, `${version}-${mode}.json`), `${JSON.stringify(record, null, '\t')}\n`);
	}
}

module.exports = SummaryReporter;
