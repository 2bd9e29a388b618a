/**
 * Per-request times measured in the same run as the figures that use them: bare fetch loops over
 * the same pages (or the same creates) with the sandbox's limiter off. They feed the floors.
 */
import { bareCreate, bareWalk } from '../lib/bare';
import type { BenchConfig } from '../lib/config';
import { median } from '../lib/measure';
import type { SandboxProcess } from '../lib/sandbox-client';

export interface ReadRequestTime {
	perRequestMs: number;
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
	return { perRequestMs: median(samples), pages, records, samplesMs: samples };
}

export interface WriteRequestTime {
	perRequestMs: number;
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
	await sandbox.reset();
	return { perRequestMs: median(samples), creates: config.bulkItems, samplesMs: samples };
}
