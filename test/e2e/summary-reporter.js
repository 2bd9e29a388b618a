/**
 * Prints the suite's closing line, `N passed, M failed` (naming the n8n version), after jest's own summary, and
 * records the run for the README's compatibility table in test/e2e/results/<n8n version>-<mode>.json:
 * `{ n8nVersion, mode: "single" | "queue", suites, passed, failed, finishedAt }` (scripts/compat-table.ts reads it).
 * The mode comes from PROSPECTING_E2E_MODE (set by the scripts that start the deployment), "single" by default.
 * A run with a test-name filter (-t) is not recorded: the table speaks of whole test files.
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
		if (!version || this.isPartialRun()) return;
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

	isPartialRun() {
		return Boolean(this.globalConfig?.testNamePattern);
	}
}

module.exports = SummaryReporter;
