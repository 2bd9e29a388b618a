/**
 * Walk: Return All over the whole lead list under the shortened window, alone on the key.
 * Measured against the read floor built from the per-request time of the same run.
 */
import type { BenchConfig } from '../lib/config';
import { againstFloor, freshRateLimitedSandbox, windowFloor, type NodeFigure } from '../lib/node-figure';
import { nodeWalk } from '../lib/node-workflows';
import { checkRecords, type RecordCheck } from '../lib/records';
import type { SandboxProcess } from '../../dev/sandbox-client';
import { untilIntoWindowMs } from '../lib/floor';

/** Clock windows: how far into a window the walk begins. */
const WALK_PHASE = 0.5;

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
	// Clock windows: every run begins half-way into a window, where what is left of it holds a window's reads at the
	// node's own pace, so runs are judged alike whatever the clock said when the figure began.
	if (clockWindows) await new Promise((resolve) => setTimeout(resolve, untilIntoWindowMs(Date.now(), config.windowSeconds * 1000, WALK_PHASE)));
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
