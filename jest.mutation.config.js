const path = require('node:path');

const base = require('./jest.config');

/**
 * Suites about the rate policy alone (issue 43): they wait out real, scaled windows (the spike suite alone takes
 * 45 s) and would run for every write-path mutant their workflows pass through. `MUTATION_SUITES=all` keeps them,
 * for mutating the rate rules: `MUTATION_SUITES=all npm run mutation -- --mutate nodes/Prospecting/transport/ratePolicy.ts`.
 */
const rateSuites = [
	'<rootDir>/test/nodes/spike.test.ts',
	'<rootDir>/test/nodes/fair-share.test.ts',
	'<rootDir>/test/nodes/rate-budget.test.ts',
	'<rootDir>/test/nodes/rate-policy.test.ts',
	'<rootDir>/test/nodes/rate-limit.test.ts',
	'<rootDir>/test/nodes/tool-rate-wait.test.ts',
	'<rootDir>/test/nodes/max-rate-limit-wait.test.ts',
	'<rootDir>/test/reliability/rate-limit-storm.test.ts',
	'<rootDir>/test/polling/',
];

/**
 * The jest run Stryker uses for `npm run mutation` (stryker.config.mjs). Only suites that run the node's code belong
 * here; left out:
 * - tests that build, pack or scan dist/ (test/release): the instrumented code trips n8n's scanner, and dist/ does
 *   not hold the mutants anyway;
 * - suites that never load the node's code: the sandbox's own tests, the benchmarks' and scripts' helpers, the
 *   docs' citation and anchor checks, and the end-to-end suite (real n8n, installed from the packed tarball).
 * The environment and sequencer of scripts/mutation/ make each mutant load only the suites of its tests; the nodes
 * load before each suite's tests, so that load-time code counts as static.
 */
module.exports = {
	...base,
	testPathIgnorePatterns: [
		...base.testPathIgnorePatterns,
		'<rootDir>/test/release/',
		'<rootDir>/test/sandbox/',
		'<rootDir>/test/bench/',
		'<rootDir>/test/scripts/',
		'<rootDir>/test/docs/cited-tests.test.ts',
		'<rootDir>/test/docs/readme-anchors.test.ts',
		...(process.env.MUTATION_SUITES === 'all' ? [] : rateSuites),
	],
	setupFilesAfterEnv: [path.join(__dirname, 'scripts', 'mutation', 'load-nodes.js')],
	testEnvironment: path.join(__dirname, 'scripts', 'mutation', 'jest-environment.js'),
	testSequencer: path.join(__dirname, 'scripts', 'mutation', 'jest-sequencer.js'),
};
