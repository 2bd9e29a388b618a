// A Stryker reporter that appends each mutant's result to reports/mutation/mutants.jsonl as soon as it is known
// (Stryker writes its own reports only at the end of a run): a run stopped early, on a busy machine, still says what
// it tested. One JSON object a line: file, line, column, mutator, replacement, status, killedBy / statusReason.
// Each run starts the file afresh.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const LOG_FILE = path.join('reports', 'mutation', 'mutants.jsonl');

class MutantLogReporter {
	constructor() {
		mkdirSync(path.dirname(LOG_FILE), { recursive: true });
		writeFileSync(LOG_FILE, '');
	}

	onMutantTested(result) {
		const line = {
			file: result.fileName,
			line: result.location.start.line,
			column: result.location.start.column,
			mutator: result.mutatorName,
			replacement: result.replacement,
			status: result.status,
			killedBy: result.killedBy,
			statusReason: result.status === 'Killed' ? undefined : result.statusReason?.slice(0, 300),
			at: new Date().toISOString(),
		};
		appendFileSync(LOG_FILE, JSON.stringify(line) + '\n');
	}
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'mutant-log', MutantLogReporter)];
