/**
 * Bulk create: one input item per lead, under the shortened window, alone on the key.
 * Measured against the write floor built from the per-request time of the same run.
 */
import { benchLeadBody } from '../lib/bare';
import type { BenchConfig } from '../lib/config';
import { againstFloor, freshRateLimitedSandbox, windowFloor, type NodeFigure } from '../lib/node-figure';
import { nodeBulkCreate } from '../lib/node-workflows';
import { checkCreates, type CreateCheck } from '../lib/records';
import type { SandboxProcess } from '../../dev/sandbox-client';

export interface BulkCreateResult extends NodeFigure {
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
	const { credentials, from } = await freshRateLimitedSandbox(sandbox, config);
	const run = await nodeBulkCreate(credentials, bulkInputItems(NODE_BULK_TAG, config.bulkItems));
	const requests = await sandbox.requestSummary(from);
	const nameCounts = await sandbox.call<Record<string, number>>('leadNameCounts', NODE_BULK_TAG);
	return {
		...againstFloor(run, windowFloor(config, 'write', config.bulkItems, perRequestMs), requests),
		outputItems: run.value.items,
		leads: checkCreates(nameCounts, NODE_BULK_TAG, config.bulkItems),
		error: run.value.error,
	};
}
