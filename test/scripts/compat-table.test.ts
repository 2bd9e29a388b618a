import { cell, readResults, renderTable, replaceTable, RESULTS_DIRECTORY, type RunResult } from '../../scripts/compat-table';
import { n8nEnvironment } from '../../scripts/lib/n8n-env';
import { n8nMajor, supportedN8nVersions } from '../../scripts/lib/n8n-versions';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SummaryReporter = require('../e2e/summary-reporter.js') as new (globalConfig: object) => {
	onRunComplete(contexts: unknown, results: object): void;
};

const run = (overrides: Partial<RunResult>): RunResult => ({
	n8nVersion: '2.41.1',
	mode: 'single',
	suites: 5,
	passed: 40,
	failed: 0,
	finishedAt: '2026-11-22T18:00:00.000Z',
	...overrides,
});

describe('the README compatibility table', () => {
	it('shows every supported version in both modes, "not run" where no result exists', () => {
		const table = renderTable([run({}), run({ n8nVersion: '1.123.81', passed: 38, failed: 2 })], ['2.41.1', '1.123.81']);
		expect(table.split('\n')).toEqual([
			'| n8n | Single process | Queue mode |',
			'|---|---|---|',
			'| n8n 2.41.1 | ✔ passed, 2026-11-22 | not run |',
			'| n8n 1.123.81 | ✘ failed, 2026-11-22 | not run |',
		]);
	});

	it('adds versions that have results but are no longer in the list, newest first', () => {
		const table = renderTable([run({ n8nVersion: '1.9.0', mode: 'queue', suites: 1 }), run({ n8nVersion: '1.10.2' })], ['2.41.1']);
		expect(table.split('\n').slice(2)).toEqual([
			'| n8n 2.41.1 | not run | not run |',
			'| n8n 1.10.2 | ✔ passed, 2026-11-22 | not run |',
			'| n8n 1.9.0 | not run | ✔ passed, 2026-11-22 |',
		]);
	});

	it('replaces only the text between the markers, and refuses a README without them', () => {
		const readme = 'intro\n<!-- compat-table:start -->\nold table\n<!-- compat-table:end -->\noutro\n';
		expect(replaceTable(readme, 'NEW')).toBe('intro\n<!-- compat-table:start -->\nNEW\n<!-- compat-table:end -->\noutro\n');
		expect(replaceTable(replaceTable(readme, 'NEW'), 'NEW')).toBe(replaceTable(readme, 'NEW'));
		expect(() => replaceTable('no markers', 'NEW')).toThrow(/compat-table:start/);
	});

	it('reads the result files of the suite and ignores a missing folder or foreign files', () => {
		const directory = mkdtempSync(path.join(tmpdir(), 'compat-'));
		try {
			writeFileSync(path.join(directory, '2.41.1-queue.json'), JSON.stringify(run({ mode: 'queue' })));
			writeFileSync(path.join(directory, 'other.json'), JSON.stringify({ hello: 'world' }));
			writeFileSync(path.join(directory, 'notes.txt'), 'not a result');
			expect(readResults(directory)).toEqual([run({ mode: 'queue' })]);
			expect(readResults(path.join(directory, 'missing'))).toEqual([]);
		} finally {
			rmSync(directory, { recursive: true, force: true });
		}
		expect(cell(undefined)).toBe('not run');
	});
});

describe('recording end-to-end runs', () => {
	const jestResults = { numPassedTests: 7, numFailedTests: 1, numRuntimeErrorTestSuites: 0, numTotalTestSuites: 2 };
	const snapshot = (directory: string) =>
		existsSync(directory)
			? readdirSync(directory).map((file) => [file, readFileSync(path.join(directory, file), 'utf8')])
			: [];
	const withEnv = (env: Record<string, string | undefined>, task: () => void) => {
		const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
		const quiet = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
		try {
			for (const [key, value] of Object.entries(env)) {
				if (value === undefined) delete process.env[key];
				else process.env[key] = value;
			}
			task();
		} finally {
			quiet.mockRestore();
			for (const [key, value] of Object.entries(saved)) {
				if (value === undefined) delete process.env[key];
				else process.env[key] = value;
			}
		}
	};

	it('npm run test:e2e records nothing: the working tree stays as it was', () => {
		const before = snapshot(RESULTS_DIRECTORY);
		// What scripts/e2e.sh gives each pass of a whole run outside release:compat.
		withEnv({ N8N_VERSION: '2.41.1', PROSPECTING_E2E_MODE: 'queue', PROSPECTING_E2E_RECORD_DIR: '' }, () =>
			new SummaryReporter({}).onRunComplete([], jestResults),
		);
		expect(snapshot(RESULTS_DIRECTORY)).toEqual(before);
	});

	it('npm run release:compat records each whole run where it asks, as the table reads it', () => {
		const directory = mkdtempSync(path.join(tmpdir(), 'compat-'));
		try {
			withEnv({ N8N_VERSION: '2.41.1', PROSPECTING_E2E_MODE: 'queue', PROSPECTING_E2E_RECORD_DIR: directory }, () => {
				new SummaryReporter({ testNamePattern: 'one test' }).onRunComplete([], jestResults);
				expect(readdirSync(directory)).toEqual([]);
				new SummaryReporter({}).onRunComplete([], jestResults);
			});
			const [result] = readResults(directory);
			expect(result).toMatchObject({ n8nVersion: '2.41.1', mode: 'queue', suites: 2, passed: 7, failed: 1 });
			expect(renderTable([result], ['2.41.1']).split('\n')[2]).toMatch(/^\| n8n 2\.41\.1 \| not run \| ✘ failed, \d{4}-\d\d-\d\d \|$/);
		} finally {
			rmSync(directory, { recursive: true, force: true });
		}
	});

	it('the README shows the table its committed records give (regenerated by npm run release:compat)', () => {
		const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
		const table = renderTable(readResults(RESULTS_DIRECTORY), supportedN8nVersions());
		expect(readResults(RESULTS_DIRECTORY).length).toBeGreaterThan(0);
		expect(replaceTable(readme, table)).toBe(readme);
	});
});

describe('the n8n versions the suite runs', () => {
	it('are pinned versions of the 2.x and the 1.x line, 2.x first (the demo default)', () => {
		const versions = supportedN8nVersions();
		expect(versions.every((v) => /^\d+\.\d+\.\d+$/.test(v))).toBe(true);
		expect(n8nMajor(versions[0])).toBe(2);
		expect(versions.some((v) => n8nMajor(v) === 1)).toBe(true);
	});

	it('get an environment each knows: n8n 1.x refuses to start on a module name it does not have', () => {
		const base = { userFolder: '/tmp/x', port: 1, brokerPort: 2, encryptionKey: 'k' };
		// n8n 1.123.81's modules (packages/@n8n/backend-common/src/modules/modules.config.ts).
		const modules1x = ['insights', 'external-secrets', 'community-packages', 'data-table', 'mcp', 'chat-hub', 'provisioning', 'breaking-changes'];
		const disabled1x = n8nEnvironment({ ...base, n8nVersion: '1.123.81' }).N8N_DISABLED_MODULES.split(',').filter(Boolean);
		expect(disabled1x.every((name) => modules1x.includes(name))).toBe(true);
		expect(n8nEnvironment({ ...base, n8nVersion: '2.41.1' }).N8N_DISABLED_MODULES).toContain('mcp-registry');
		for (const version of ['1.123.81', '2.41.1']) {
			const env = n8nEnvironment({ ...base, n8nVersion: version });
			// Both names of the webhook address (1.x reads only WEBHOOK_URL), and nothing that reaches n8n's servers.
			expect(env.WEBHOOK_URL).toBe('http://127.0.0.1:1/');
			expect(env.N8N_WEBHOOK_URL).toBe('http://127.0.0.1:1/');
			expect(env.N8N_DIAGNOSTICS_ENABLED).toBe('false');
			expect(env.N8N_VERSION_NOTIFICATIONS_ENABLED).toBe('false');
			expect(env.N8N_TEMPLATES_ENABLED).toBe('false');
		}
	});
});
