/**
 * Which test files hold the tests that ran each mutant's code in Stryker's initial run, kept on disk in Stryker's
 * sandbox so that every test runner process (the initial run happens in only one) reads the same map.
 *
 * The harness loads the nodes from their sources at run time (dev/harness/node-types.ts), so jest cannot tell which
 * test files reach a mutated file (`--findRelatedTests` finds none) and Stryker would load every suite for every
 * mutant, about 15 s each before any test runs. With this map, a mutant's run loads only the files of the tests
 * Stryker chose for it (see jest-sequencer.js).
 */
const fs = require('node:fs');
const path = require('node:path');

const FILE_NAME = '.stryker-test-files.json';

/** The mutant Stryker is testing in this process, or undefined in the initial run and outside Stryker. */
const activeMutant = () => process.env.__STRYKER_ACTIVE_MUTANT__;

const mapFile = (rootDir) => path.join(rootDir, FILE_NAME);

/** @returns {{ static: string[], files: Record<string, string[]>, durations: Record<string, number> } | undefined} */
function readMap(rootDir) {
	try {
		return JSON.parse(fs.readFileSync(mapFile(rootDir), 'utf8'));
	} catch {
		return undefined;
	}
}

/**
 * Adds the mutants one test file's tests covered and how long the file took; static mutants (run while modules
 * load) are kept apart.
 */
function recordFile(rootDir, testPath, durationMs, mutants, staticMutants) {
	const map = readMap(rootDir) ?? { static: [], files: {}, durations: {} };
	map.files[testPath] = [...new Set([...(map.files[testPath] ?? []), ...mutants])];
	map.durations[testPath] = durationMs;
	map.static = [...new Set([...map.static, ...staticMutants])];
	fs.writeFileSync(mapFile(rootDir), JSON.stringify(map));
}

module.exports = { activeMutant, readMap, recordFile };
