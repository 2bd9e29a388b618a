/**
 * Walk: Return All over the whole lead list under the shortened window, alone on the key.
 * Measured against the read floor built from the per-request time of the same run.
 */
import type { BenchConfig } from '../lib/config';
import { againstFloor, freshRateLimitedSandbox, windowFloor, type NodeFigure } from '../lib/node-figure';
import { nodeWalk } from '../lib/node-workflows';
import { checkRecords, type RecordCheck } from '../lib/records';
import type { SandboxProcess } from '../../dev/sandbox-client';

export interface WalkResult extends NodeFigure {
	pagesExpected: number;
	records: RecordCheck;
	error?: string;
}

export async function runWalk(
	sandbox: SandboxProcess,
	config: BenchConfig,
	perRequestMs: number,
	expectedIds: string[],
	clockWindows = false,
): Promise<WalkResult> {
	const { credentials, from } = await freshRateLimitedSandbox(sandbox, config);
	const startedAt = Date.now();
	const run = await nodeWalk(credentials, config.pageSize);
	const requests = await sandbox.requestSummary(from);
	const pagesExpected = Math.ceil(expectedIds.length / config.pageSize);
	// Clock windows: the walk begins part-way through one, and only what is left of it must pass.
	const floor = windowFloor(config, 'read', pagesExpected, perRequestMs, clockWindows ? startedAt : undefined);
	return {
		pagesExpected,
		...againstFloor(run, floor, requests),
		records: checkRecords(run.value.ids, expectedIds),
		error: run.value.error,
	};
}
