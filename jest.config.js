const os = require('node:os');

const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

/**
 * Unit and integration tests: in process, against a sandbox started per suite on loopback.
 *
 * Most suites spend their time waiting on loopback HTTP and child processes rather than computing, so
 * jest runs two workers per core (jest's default is one less than the cores: a single worker on a
 * 2-core machine). Suites start longest first (test/sequencer.js).
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json', diagnostics: false }],
	},
	// A number: jest reads a percentage above 100 % as a count ('200%' would be 200 workers).
	maxWorkers: Math.max(2, cores * 2),
	testSequencer: '<rootDir>/test/sequencer.js',
	// Nothing a test starts may leave the machine, whatever the code under test gets wrong.
	setupFiles: ['<rootDir>/test/support/loopback-only.ts'],
	testTimeout: 60_000,
};
