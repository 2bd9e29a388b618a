/**
 * Bulk create: one input item per lead, under the shortened window, alone on the key.
 * Measured against the write floor built from the per-request time of the same run.
 */
import { benchLeadBody } from '../lib/bare';
import type { BenchConfig } from '../lib/config';
import { rateLimitFloor, type Floor } from '../lib/floor';
import { round } from '../lib/measure';
import { forgetRateBudgets, nodeBulkCreate } from '../lib/node-workflows';
import { checkCreates, type CreateCheck } from '../lib/records';
import type { RequestSummary, SandboxProcess } from '../lib/sandbox-client';

export interface BulkCreateResult {
	wallMs: number;
	cpuMs: number;
	floor: Floor;
	ratioToFloor: number;
	ratioToStrictFloor: number;
	requests: RequestSummary;
	outputItems: number;
	leads: CreateCheck;
	error?: string;
}

export const NODE_BULK_TAG = 'Bench node';

export function bulkInputItems(tag: string, count: number) {
	return Array.from({ length: count }, (_, i) => {
		const body = benchLeadBody(tag, i);
		return { name: body.name, company: body.company, email: body.emails[0].value };
	});
}

export async function runBulkCreate(
	sandbox: SandboxProcess,
	config: BenchConfig,
	perRequestMs: number,
): Promise<BulkCreateResult> {
	await sandbox.reset();
	forgetRateBudgets();
	await sandbox.setRateLimit({
		enabled: true,
		windowSeconds: config.windowSeconds,
		readLimit: config.readLimit,
		writeLimit: config.writeLimit,
	});
	const from = await sandbox.requestCount();
	const run = await nodeBulkCreate(
		{ baseUrl: sandbox.url, apiKey: sandbox.apiKey, rateLimitWindowSeconds: config.windowSeconds },
		bulkInputItems(NODE_BULK_TAG, config.bulkItems),
	);
	const requests = await sandbox.requestSummary(from);
	const nameCounts = await sandbox.call<Record<string, number>>('leadNameCounts', NODE_BULK_TAG);
	const floor = rateLimitFloor({
		requests: config.bulkItems,
		limit: config.writeLimit,
		windowMs: config.windowSeconds * 1000,
		perRequestMs,
	});
	return {
		wallMs: round(run.wallMs, 1),
		cpuMs: round(run.cpuMs, 1),
		floor,
		ratioToFloor: round(run.wallMs / floor.floorMs, 3),
		ratioToStrictFloor: round(run.wallMs / floor.strictFloorMs, 3),
		requests,
		outputItems: run.value.items,
		leads: checkCreates(nameCounts, NODE_BULK_TAG, config.bulkItems),
		error: run.value.error,
	};
}
