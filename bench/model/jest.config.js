/**
 * `npm run bench:model`: the spike model of the rate budget on the controlled clock, which runs under jest's
 * fake timers. Kept apart from the tests: it reports figures and checks nothing.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/bench/model'],
	testMatch: ['**/*.bench.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json', diagnostics: false }] },
	testTimeout: 1_800_000,
};
