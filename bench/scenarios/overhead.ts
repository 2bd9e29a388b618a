/**
 * Overhead: the rate limit off, Return All through the node in n8n-core against a bare loop of
 * fetch calls for the same pages. Runs alternate (bare, node, minimal, bare, node, minimal…) after
 * a warm-up of each, and the medians are compared. CPU is this process's only: the sandbox runs in
 * another process.
 * A third side, a minimal n8n node walking the same pages with n8n-core's request helper alone,
 * splits the overhead into what n8n itself costs per request and what the package's transport adds.
 */
import { bareWalk } from '../lib/bare';
import type { BenchConfig } from '../lib/config';
import { median, round } from '../lib/measure';
import { forgetRateBudgets, minimalNodeWalk, nodeWalk } from '../lib/node-workflows';
import type { SandboxProcess } from '../../dev/sandbox-client';

interface Side {
	wallMs: number;
	cpuMs: number;
	samples: Array<{ wallMs: number; cpuMs: number }>;
	records: number;
}

export interface OverheadResult {
	leads: number;
	pages: number;
	repeats: number;
	bare: Side;
	node: Side;
	minimal: Side;
	wallRatio: number;
	cpuRatio: number;
	/** The minimal n8n node against the bare loop: n8n's own share. */
	minimalWallRatio: number;
	minimalCpuRatio: number;
	/** Our node against the minimal n8n node: the package transport's share. */
	nodeToMinimalWallRatio: number;
	nodeToMinimalCpuRatio: number;
	error?: string;
}

function side(samples: Array<{ wallMs: number; cpuMs: number }>, records: number): Side {
	return {
		wallMs: median(samples.map((s) => s.wallMs)),
		cpuMs: median(samples.map((s) => s.cpuMs)),
		samples,
		records,
	};
}

export async function runOverhead(sandbox: SandboxProcess, config: BenchConfig): Promise<OverheadResult> {
	await sandbox.reset();
	forgetRateBudgets();
	// Off, and with budgets no walk can spend: with the limiter off the sandbox still sends the
	// X-RateLimit-* headers, and at the service's budgets they would announce 0 remaining after 200
	// reads, which the node rightly obeys. The overhead figure is about the node's own cost.
	await sandbox.setRateLimit({ enabled: false, readLimit: 1_000_000_000, writeLimit: 1_000_000_000 });
	const credentials = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
	// Warm-up: module loading, JIT and connection set-up belong to no side.
	const warmBare = await bareWalk(sandbox.url, sandbox.apiKey, { pageSize: config.pageSize });
	const warmNode = await nodeWalk(credentials, config.pageSize, false);
	const warmMinimal = await minimalNodeWalk(credentials, config.pageSize);
	const error = warmNode.value.error ?? warmMinimal.value.error;
	const bare: Side['samples'] = [];
	const node: Side['samples'] = [];
	const minimal: Side['samples'] = [];
	let nodeRecords = 0;
	let minimalRecords = 0;
	if (!error) {
		for (let i = 0; i < config.overheadRepeats; i++) {
			const b = await bareWalk(sandbox.url, sandbox.apiKey, { pageSize: config.pageSize });
			bare.push({ wallMs: round(b.wallMs, 1), cpuMs: round(b.cpuMs, 1) });
			const n = await nodeWalk(credentials, config.pageSize, false);
			node.push({ wallMs: round(n.wallMs, 1), cpuMs: round(n.cpuMs, 1) });
			nodeRecords = n.value.items;
			const m = await minimalNodeWalk(credentials, config.pageSize);
			minimal.push({ wallMs: round(m.wallMs, 1), cpuMs: round(m.cpuMs, 1) });
			minimalRecords = m.value.items;
		}
	}
	const b = side(bare, warmBare.value.records);
	const n = side(node, nodeRecords);
	const m = side(minimal, minimalRecords);
	// A side that returned fewer records did less work; its time would flatter it.
	const short = [
		['our node', nodeRecords],
		['the minimal node', minimalRecords],
	].filter(([, records]) => records !== warmBare.value.records);
	const recordError = error
		? undefined
		: short.map(([name, records]) => `${name} returned ${records} records, the bare loop ${warmBare.value.records}`).join('; ') || undefined;
	return {
		leads: config.overheadLeads,
		pages: warmBare.value.pages,
		repeats: bare.length,
		bare: b,
		node: n,
		minimal: m,
		wallRatio: round(n.wallMs / b.wallMs, 3),
		cpuRatio: round(n.cpuMs / b.cpuMs, 3),
		minimalWallRatio: round(m.wallMs / b.wallMs, 3),
		minimalCpuRatio: round(m.cpuMs / b.cpuMs, 3),
		nodeToMinimalWallRatio: round(n.wallMs / m.wallMs, 3),
		nodeToMinimalCpuRatio: round(n.cpuMs / m.cpuMs, 3),
		error: error ?? recordError,
	};
}
