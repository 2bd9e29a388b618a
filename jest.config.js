/** Unit and integration tests: in process, against a sandbox started per suite on loopback. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json', diagnostics: false }],
	},
	testTimeout: 60_000,
};
