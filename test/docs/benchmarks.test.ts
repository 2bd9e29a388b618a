/**
 * BENCHMARKS.md stays short and bench/results/ holds one file per documented case: each command of "How to
 * reproduce" writes the file of its case, which a rerun overwrites, so reruns add no files.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { spikeCaseName, type CaseOptions } from '../../bench/spike/case-name';
import { read, root } from './docs-support';

const benchmarks = read('BENCHMARKS.md');
const reproduce = benchmarks.slice(benchmarks.indexOf('## How to reproduce'));
const commands = (/```bash\n([\s\S]*?)```/.exec(reproduce)?.[1] ?? '')
	.split('\n')
	.map((line) => line.replace(/#.*$/, '').trim())
	// npm ci installs and bench/spike/table.ts reads a result: neither writes one.
	.filter((line) => line && line !== 'npm ci' && !line.includes('bench/spike/table.ts'));

/** The options of a spike command, as bench/spike/run.ts and n8n-baseline.ts read them. */
function spikeOptions(line: string, deployments: string[]): CaseOptions {
	const options: CaseOptions = { deployments, posts: [], double: 100 };
	for (const arg of line.split(/\s+/)) {
		const [name, value = ''] = arg.split(/=(.*)/s);
		if (name === '--posts') options.posts = value.split(',').map(Number);
		else if (name === '--deployments') options.deployments = value.split(',');
		else if (name === '--double') options.double = Number(value);
		else if (name === '--rate-headers') options.rateHeaders = value as CaseOptions['rateHeaders'];
		else if (name === '--clock-windows') options.clockWindows = true;
		else if (name === '--real-window') options.realWindow = true;
		else if (name === '--other-client') options.otherClient = Number(value);
		else if (name === '--processes-unstated') options.processesUnstated = true;
		else if (name === '--concurrency-limit') options.concurrencyLimit = Number(value);
		else if (name === '--node-options') options.nodeOptions = value;
	}
	return options;
}

/** The results file a documented command writes (bench/lib/figure-paths.ts names them). */
export function resultsFileOf(line: string): string {
	if (line.startsWith('npm run bench:spike')) return `results.${spikeCaseName(spikeOptions(line, ['single', 'queue-2', 'queue-4']))}.json`;
	if (line.includes('bench/spike/n8n-baseline.ts')) return `results.${spikeCaseName({ ...spikeOptions(line, ['n8n-baseline']), deployments: ['n8n-baseline'] })}.json`;
	if (line.includes('bench/real-n8n/trigger-vs-webhook.ts --write')) return 'results.n8n-trigger.json';
	if (line.startsWith('npm run bench:queue')) return 'results.queue-mode.json';
	if (line.startsWith('npm run bench:model')) return 'results.model.json';
	if (line === 'npm run bench -- --real-window') return 'results.real-window.json';
	if (line === 'npm run bench') return 'results.json';
	throw new Error(`BENCHMARKS.md documents a command whose results file is not known here: ${line}`);
}

const kept = readdirSync(path.join(root, 'bench', 'results')).sort();

describe('BENCHMARKS.md and bench/results/', () => {
	it('BENCHMARKS.md has at most 120 lines and bench/results/ at most 13 files', () => {
		expect(benchmarks.trimEnd().split('\n').length).toBeLessThanOrEqual(120);
		expect(kept.length).toBeLessThanOrEqual(13);
	});

	it('each command of "How to reproduce" writes a kept file, and each kept file is written by one of them', () => {
		const written = commands.map(resultsFileOf);
		expect(written.filter((file) => !kept.includes(file))).toEqual([]);
		expect(kept.filter((file) => !written.includes(file))).toEqual([]);
	});

	it('names a spike case by the options that make it, whatever the number of runs', () => {
		expect(resultsFileOf('npm run bench:spike -- --posts=1000,1000 --deployments=queue-4 --double=0')).toBe('results.spike.queue-4-1000.json');
		expect(resultsFileOf('npm run bench:spike -- --posts=1000 --deployments=queue-4 --double=0')).toBe('results.spike.queue-4-1000.json');
		expect(resultsFileOf('npm run bench:spike -- --posts=200 --deployments=single --rate-headers=on-429 --clock-windows')).toBe(
			'results.spike.single-200-on-429-clock-windows-double-100.json',
		);
	});
});
