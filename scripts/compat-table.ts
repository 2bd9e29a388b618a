/**
 * Regenerates the README's compatibility table (between <!-- compat-table:start --> and <!-- compat-table:end -->)
 * from the recorded end-to-end runs: one file per n8n version and mode in test/e2e/results/, written by
 * test/e2e/summary-reporter.js during `npm run release:compat`. Rows: the versions of scripts/lib/n8n-versions.txt,
 * then any other version that has a result; columns: single process and queue mode. Run at the end of
 * `npm run release:compat` (never by `npm run test:e2e`); also by hand: `npx ts-node --transpile-only scripts/compat-table.ts`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { supportedN8nVersions } from './lib/n8n-versions';

export const MODES = ['single', 'queue'] as const;
export type Mode = (typeof MODES)[number];

export interface RunResult {
	n8nVersion: string;
	mode: Mode;
	/** Test files run. */
	suites: number;
	passed: number;
	failed: number;
	finishedAt: string;
}

const START = '<!-- compat-table:start -->';
const END = '<!-- compat-table:end -->';
const MODE_TITLES: Record<Mode, string> = { single: 'Single process', queue: 'Queue mode' };

export function readResults(directory: string): RunResult[] {
	if (!existsSync(directory)) return [];
	return readdirSync(directory)
		.filter((file) => file.endsWith('.json'))
		.map((file) => JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as RunResult)
		.filter((result) => typeof result.n8nVersion === 'string' && (MODES as readonly string[]).includes(result.mode));
}

function compareVersionsDescending(a: string, b: string): number {
	const pa = a.split('.').map(Number);
	const pb = b.split('.').map(Number);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const diff = (pb[i] ?? 0) - (pa[i] ?? 0);
		if (diff !== 0) return diff;
	}
	return 0;
}

/** What a user reads of a run: whether the whole suite passed on that n8n, and when (its counts stay in the record). */
export function cell(result: RunResult | undefined): string {
	if (!result) return 'not run';
	const date = result.finishedAt.slice(0, 10);
	return result.failed === 0 && result.passed > 0 ? `✔ passed, ${date}` : `✘ failed, ${date}`;
}

export function renderTable(results: RunResult[], versions: string[]): string {
	const extra = [...new Set(results.map((r) => r.n8nVersion))].filter((v) => !versions.includes(v)).sort(compareVersionsDescending);
	const rows = [...versions, ...extra].map((version) => {
		const cells = MODES.map((mode) => cell(results.find((r) => r.n8nVersion === version && r.mode === mode)));
		return `| n8n ${version} | ${cells.join(' | ')} |`;
	});
	return [`| n8n | ${MODES.map((m) => MODE_TITLES[m]).join(' | ')} |`, `|---|${MODES.map(() => '---').join('|')}|`, ...rows].join(
		'\n',
	);
}

/** The README with the text between the markers replaced by the table; throws when the markers are missing. */
export function replaceTable(readme: string, table: string): string {
	const start = readme.indexOf(START);
	const end = readme.indexOf(END);
	if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
	return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

/** Where `npm run release:compat` records the runs the table is made from (committed with the README). */
export const RESULTS_DIRECTORY = path.resolve(__dirname, '..', 'test', 'e2e', 'results');

function main() {
	const repoRoot = path.resolve(__dirname, '..');
	const readmePath = path.join(repoRoot, 'README.md');
	const table = renderTable(readResults(RESULTS_DIRECTORY), supportedN8nVersions());
	const before = readFileSync(readmePath, 'utf8');
	const after = replaceTable(before, table);
	if (after !== before) writeFileSync(readmePath, after);
	process.stderr.write(`[compat] README compatibility table ${after === before ? 'unchanged' : 'updated'}:\n${table}\n`);
}

if (require.main === module) main();
