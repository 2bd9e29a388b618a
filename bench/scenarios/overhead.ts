/**
 * Overhead: the rate limit off, Return All through the node in n8n-core against a bare loop of
 * fetch calls for the same pages. Runs alternate (bare, node, bare, node…) after a warm-up of each,
 * and the medians are compared. CPU is this process's only: the sandbox runs in another process.
 */
import { bareWalk } from '../lib/bare';
import type { BenchConfig } from '../lib/config';
import { median, round } from '../lib/measure';
import { nodeWalk } from '../lib/node-workflows';
import type { SandboxProcess } from '../lib/sandbox-client';

export interface OverheadResult {
	leads: number;
	pages: number;
	repeats: number;
	bare: { wallMs: number; cpuMs: number; samples: Array<{ wallMs: number; cpuMs: number }> };
	node: { wallMs: number; cpuMs: number; samples: Array<{ wallMs: number; cpuMs: number }>; records: number };
	wallRatio: number;
	cpuRatio: number;
	error?: string;
}

export async function runOverhead(sandbox: SandboxProcess, config: BenchConfig): Promise<OverheadResult> {
	await sandbox.reset();
	await sandbox.setRateLimit({ enabled: false });
	const credentials = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
	// Warm-up: module loading, JIT and connection set-up belong to neither side.
	const warmBare = await bareWalk(sandbox.url, sandbox.apiKey, { pageSize: config.pageSize });
	const warmNode = await nodeWalk(credentials, config.pageSize, false);
	if (warmNode.value.error) {
		return {
			leads: config.overheadLeads,
			pages: warmBare.value.pages,
			repeats: 0,
			bare: { wallMs: NaN, cpuMs: NaN, samples: [] },
			node: { wallMs: NaN, cpuMs: NaN, samples: [], records: 0 },
			wallRatio: NaN,
			cpuRatio: NaN,
			error: warmNode.value.error,
		};
	}
	const bare: Array<{ wallMs: number; cpuMs: number }> = [];
	const node: Array<{ wallMs: number; cpuMs: number }> = [];
	let records = 0;
	for (let i = 0; i < config.overheadRepeats; i++) {
		global.gc?.();
		const b = await bareWalk(sandbox.url, sandbox.apiKey, { pageSize: config.pageSize });
		bare.push({ wallMs: round(b.wallMs, 1), cpuMs: round(b.cpuMs, 1) });
		global.gc?.();
		const n = await nodeWalk(credentials, config.pageSize, false);
		node.push({ wallMs: round(n.wallMs, 1), cpuMs: round(n.cpuMs, 1) });
		records = n.value.items;
	}
	const bareWall = median(bare.map((s) => s.wallMs));
	const bareCpu = median(bare.map((s) => s.cpuMs));
	const nodeWall = median(node.map((s) => s.wallMs));
	const nodeCpu = median(node.map((s) => s.cpuMs));
	return {
		leads: config.overheadLeads,
		pages: warmBare.value.pages,
		repeats: config.overheadRepeats,
		bare: { wallMs: bareWall, cpuMs: bareCpu, samples: bare },
		node: { wallMs: nodeWall, cpuMs: nodeCpu, samples: node, records },
		wallRatio: round(nodeWall / bareWall, 3),
		cpuRatio: round(nodeCpu / bareCpu, 3),
	};
}
