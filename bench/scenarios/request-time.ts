/**
 * Per-request times measured in the same run as the figures that use them: bare fetch loops over
 * the same pages (or the same creates) with the sandbox's limiter off. They feed the floors.
 */
import { bareCreate, bareWalk } from '../lib/bare';
import type { BenchConfig } from '../lib/config';
import { median } from '../lib/measure';
import { bulkInputItems } from './bulk-create';
import { forgetRateBudgets, nodeBulkCreate, nodeWalk } from '../lib/node-workflows';
import type { SandboxProcess } from '../../dev/sandbox-client';

/**
 * The warm-up runs' credential: limits far beyond the work, so the node never waits even where the sandbox sends no
 * X-RateLimit-* on its answers (headers only on 429) and the credential's limits are all it paces on.
 */
function unlimited(sandbox: SandboxProcess) {
	return { baseUrl: sandbox.url, apiKey: sandbox.apiKey, readsPerWindow: 1_000_000_000, writesPerWindow: 1_000_000_000 };
}

/**
 * The floor takes the fastest of the samples: other work on the machine only ever slows a bare loop
 * down, and a floor must not be inflated by it (that would flatter every ratio built on it).
 */
export interface ReadRequestTime {
	perRequestMs: number;
	medianMs: number;
	pages: number;
	records: number;
	samplesMs: number[];
}

export async function measureReadRequestTime(sandbox: SandboxProcess, config: BenchConfig): Promise<ReadRequestTime> {
	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: false });
	// Unmeasured walks first: connection set-up and JIT warm-up (of both processes) belong to no figure.
	for (let i = 0; i < 2; i++) await bareWalk(sandbox.url, sandbox.apiKey, { pageSize: config.pageSize });
	const samples: number[] = [];
	let pages = 0;
	let records = 0;
	for (let i = 0; i < config.perRequestRepeats; i++) {
		const run = await bareWalk(sandbox.url, sandbox.apiKey, { pageSize: config.pageSize });
		pages = run.value.pages;
		records = run.value.records;
		samples.push(run.wallMs / run.value.pages);
	}
	// The node's first run loads and compiles its modules; that belongs to no figure either.
	await sandbox.setRateLimit({ enabled: false, readLimit: 1_000_000_000, writeLimit: 1_000_000_000 });
	const warm = await nodeWalk(unlimited(sandbox), config.pageSize, false);
	if (warm.value.error) throw new Error(`the node's warm-up walk failed: ${warm.value.error}`);
	forgetRateBudgets();
	return { perRequestMs: Math.min(...samples), medianMs: median(samples), pages, records, samplesMs: samples };
}

export interface WriteRequestTime {
	perRequestMs: number;
	medianMs: number;
	creates: number;
	samplesMs: number[];
}

export async function measureWriteRequestTime(
	sandbox: SandboxProcess,
	config: BenchConfig,
): Promise<WriteRequestTime> {
	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: false });
	await bareCreate(sandbox.url, sandbox.apiKey, 'Bench warm-up', Math.min(20, config.bulkItems));
	const samples: number[] = [];
	for (let i = 0; i < config.perRequestRepeats; i++) {
		const run = await bareCreate(sandbox.url, sandbox.apiKey, `Bench bare ${i}`, config.bulkItems);
		samples.push(run.wallMs / run.value.created);
	}
	await sandbox.setRateLimit({ enabled: false, readLimit: 1_000_000_000, writeLimit: 1_000_000_000 });
	await nodeBulkCreate(unlimited(sandbox), bulkInputItems('Bench warm-up node', 5));
	await sandbox.reset();
	forgetRateBudgets();
	return { perRequestMs: Math.min(...samples), medianMs: median(samples), creates: config.bulkItems, samplesMs: samples };
}
