/**
 * Prints the suite's closing line, `N passed, M failed` (naming the n8n version), after jest's own summary. When
 * PROSPECTING_E2E_RECORD_DIR names a folder (`npm run release:compat` sets it to test/e2e/results for a whole run),
 * records the run there for the README's compatibility table as <n8n version>-<mode>.json:
 * `{ n8nVersion, mode: "single" | "queue", suites, passed, failed, finishedAt }` (scripts/compat-table.ts reads it).
 * Any other run writes nothing, so running the suite leaves the working tree as it was. The mode comes from
 * PROSPECTING_E2E_MODE, "single" by default.
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
		const directory = process.env.PROSPECTING_E2E_RECORD_DIR;
		if (!version || !directory || this.globalConfig?.testNamePattern) return;
		const record = {
			n8nVersion: version,
			mode,
			suites: results.numTotalTestSuites,
			passed: results.numPassedTests,
			failed,
			finishedAt: new Date().toISOString(),
		};
		mkdirSync(directory, { recursive: true });
		writeFileSync(path.join(directory, `${version}-${mode}.json`), `${JSON.stringify(record, null, '\t')}\n`);
	}
}

module.exports = SummaryReporter;
