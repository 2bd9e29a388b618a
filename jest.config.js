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
	maxWorkers: '200%',
	testSequencer: '<rootDir>/test/sequencer.js',
	testTimeout: 60_000,
};
