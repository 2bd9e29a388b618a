/**
 * End-to-end suite: the packed package installed in a real n8n (provisioned by scripts/provision-n8n.sh; run once per
 * version of scripts/lib/n8n-versions.txt with N8N_VERSION set),
 * against the sandbox on loopback. Run through `npm run test:e2e` (scripts/e2e.sh), which builds and provisions first.
 */
const path = require('node:path');

module.exports = {
	rootDir: path.resolve(__dirname, '..', '..'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }],
	},
	// One n8n instance for the whole suite; its steps run in order.
	maxWorkers: 1,
	// The sandbox and the test's own calls reach loopback only (n8n itself is a process of its own).
	setupFiles: ['<rootDir>/test/support/loopback-only.ts'],
	testTimeout: 180_000,
	reporters: ['default', '<rootDir>/test/e2e/summary-reporter.js'],
};
