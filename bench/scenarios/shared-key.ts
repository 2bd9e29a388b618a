/**
 * Shared key: two executions walk the whole list at the same time with the same key, in one n8n
 * process, so they draw on one budget. Measured against the floor of both walks' reads together.
 */
import type { BenchConfig } from '../lib/config';
import { freshRateLimitedSandbox, windowFloor } from '../lib/node-figure';
import type { Floor } from '../lib/floor';
import { round } from '../lib/measure';
import { nodeWalk } from '../lib/node-workflows';
import { checkRecords, type RecordCheck } from '../lib/records';
import type { RequestSummary, SandboxProcess } from '../../dev/sandbox-client';

export interface SharedKeyResult {
	wallMs: number;
	floor: Floor;
	ratioToFloor: number;
	requests: RequestSummary;
	executions: Array<{ wallMs: number; completed: boolean; records: RecordCheck; error?: string }>;
}

export async function runSharedKey(
	sandbox: SandboxProcess,
	config: BenchConfig,
	perRequestMs: number,
	expectedIds: string[],
): Promise<SharedKeyResult> {
	const { credentials, from } = await freshRateLimitedSandbox(sandbox, config);
	const start = performance.now();
	const runs = await Promise.all([nodeWalk(credentials, config.pageSize), nodeWalk(credentials, config.pageSize)]);
	const wallMs = performance.now() - start;
	const requests = await sandbox.requestSummary(from);
	const pages = 2 * Math.ceil(expectedIds.length / config.pageSize);
	const floor = windowFloor(config, 'read', pages, perRequestMs);
	return {
		wallMs: round(wallMs, 1),
		floor,
		ratioToFloor: round(wallMs / floor.floorMs, 3),
		requests,
		executions: runs.map((run) => ({
			wallMs: round(run.wallMs, 1),
			completed: run.value.error === undefined,
			records: checkRecords(run.value.ids, expectedIds),
			error: run.value.error,
		})),
	};
}
