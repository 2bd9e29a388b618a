/**
 * Walk: Return All over the whole lead list under the shortened window, alone on the key.
 * Measured against the read floor built from the per-request time of the same run.
 */
import type { BenchConfig } from '../lib/config';
import { rateLimitFloor, type Floor } from '../lib/floor';
import { round } from '../lib/measure';
import { forgetRateBudgets, nodeWalk } from '../lib/node-workflows';
import { checkRecords, type RecordCheck } from '../lib/records';
import type { RequestSummary, SandboxProcess } from '../lib/sandbox-client';

export interface WalkResult {
	pagesExpected: number;
	wallMs: number;
	cpuMs: number;
	floor: Floor;
	ratioToFloor: number;
	ratioToStrictFloor: number;
	requests: RequestSummary;
	records: RecordCheck;
	error?: string;
}

export async function runWalk(
	sandbox: SandboxProcess,
	config: BenchConfig,
	perRequestMs: number,
	expectedIds: string[],
): Promise<WalkResult> {
	await sandbox.reset();
	forgetRateBudgets();
	await sandbox.setRateLimit({
		enabled: true,
		windowSeconds: config.windowSeconds,
		readLimit: config.readLimit,
		writeLimit: config.writeLimit,
	});
	const from = await sandbox.requestCount();
	const run = await nodeWalk(
		{ baseUrl: sandbox.url, apiKey: sandbox.apiKey, rateLimitWindowSeconds: config.windowSeconds },
		config.pageSize,
	);
	const requests = await sandbox.requestSummary(from);
	const pagesExpected = Math.ceil(expectedIds.length / config.pageSize);
	const floor = rateLimitFloor({
		requests: pagesExpected,
		limit: config.readLimit,
		windowMs: config.windowSeconds * 1000,
		perRequestMs,
	});
	return {
		pagesExpected,
		wallMs: round(run.wallMs, 1),
		cpuMs: round(run.cpuMs, 1),
		floor,
		ratioToFloor: round(run.wallMs / floor.floorMs, 3),
		ratioToStrictFloor: round(run.wallMs / floor.strictFloorMs, 3),
		requests,
		records: checkRecords(run.value.ids, expectedIds),
		error: run.value.error,
	};
}
