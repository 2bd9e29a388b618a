const path = require('node:path');

const base = require('./jest.config');

/**
 * Suites about something other than writes: the rate policy (issue 43: they wait out real, scaled windows, the
 * spike suite alone 45 s), lists, pickers, the credential, the trigger's deliveries, the harness, the docs. They
 * would run for every write-path mutant their workflows pass through, and a surviving mutant runs every test that
 * covers it. `MUTATION_SUITES=all` keeps them. The rate rules are mutated against their unit tests and the fault
 * schedules alone (numbers and clocks in ms): docs/dev/rate-limits.md#mutation-testing.
 */
const otherSuites = [
	'<rootDir>/test/nodes/spike.test.ts',
	'<rootDir>/test/nodes/fair-share.test.ts',
	'<rootDir>/test/nodes/rate-defects.test.ts',
	'<rootDir>/test/nodes/rate-policy.test.ts',
	'<rootDir>/test/nodes/rate-limit.test.ts',
	'<rootDir>/test/nodes/tool-rate-wait.test.ts',
	'<rootDir>/test/nodes/max-rate-limit-wait.test.ts',
	'<rootDir>/test/reliability/rate-limit-storm.test.ts',
	'<rootDir>/test/polling/',
	'<rootDir>/test/nodes/pickers.test.ts',
	'<rootDir>/test/nodes/list-search.test.ts',
	'<rootDir>/test/nodes/pagination.test.ts',
	'<rootDir>/test/nodes/credential.test.ts',
	'<rootDir>/test/trigger/deliveries.test.ts',
	'<rootDir>/test/trigger/events-and-memory.test.ts',
	'<rootDir>/test/trigger/signature.test.ts',
	'<rootDir>/test/harness/',
	'<rootDir>/test/docs/',
];

/**
 * The jest run Stryker uses for `npm run mutation` (stryker.config.mjs). Only suites that run the node's code belong
 * here; left out:
 * - tests that build, pack or scan dist/ (test/release): the instrumented code trips n8n's scanner, and dist/ does
 *   not hold the mutants anyway;
 * - suites that never load the node's code: the sandbox's own tests, the benchmarks' and scripts' helpers, the
 *   docs' citation and anchor checks, and the end-to-end suite (real n8n, installed from the packed tarball);
 * - by default, the suites about something other than writes (above).
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
		...(['all', 'rate-rules'].includes(process.env.MUTATION_SUITES ?? '') ? [] : otherSuites),
	],
	...(process.env.MUTATION_SUITES === 'rate-rules' ? { testMatch: ['<rootDir>/test/nodes/rate-policy.test.ts', '<rootDir>/test/faults/rate-policy.test.ts'] } : {}),
	setupFilesAfterEnv: [path.join(__dirname, 'scripts', 'mutation', 'load-nodes.js')],
	testEnvironment: path.join(__dirname, 'scripts', 'mutation', 'jest-environment.js'),
	testSequencer: path.join(__dirname, 'scripts', 'mutation', 'jest-sequencer.js'),
};
