import type { IDataObject } from 'n8n-workflow';

/** How many recent event ids are remembered per trigger node. Older ids are forgotten first. */
export const REMEMBERED_DELIVERY_IDS = 500;

/** How many trigger nodes the in-process memory covers at once. */
const REMEMBERED_SCOPES = 200;

const STATIC_DATA_KEY = 'recentDeliveryIds';

/**
 * In-process memory per trigger node, alongside the node's static data: n8n saves static data only
 * after an execution ends, so a retry arriving while the first delivery still runs is caught here.
 */
const processMemory = new Map<string, string[]>();

function remembered(list: unknown): string[] {
	return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}

function bounded(ids: string[], id: string): string[] {
	const next = ids.filter((known) => known !== id);
	next.push(id);
	return next.slice(-REMEMBERED_DELIVERY_IDS);
}

/**
 * Returns true when the event id was already accepted by this node (a repeated delivery);
 * otherwise remembers it and returns false. Synchronous, so two deliveries cannot interleave.
 * Call it only for deliveries whose signature was verified, so a forged delivery cannot block a
 * genuine one by using its id first.
 */
export function isRepeatedDelivery(staticData: IDataObject, scope: string, id: string): boolean {
	const stored = remembered(staticData[STATIC_DATA_KEY]);
	const inProcess = processMemory.get(scope) ?? [];
	if (stored.includes(id) || inProcess.includes(id)) return true;

	staticData[STATIC_DATA_KEY] = bounded(stored, id);
	processMemory.delete(scope);
	processMemory.set(scope, bounded(inProcess, id));
	if (processMemory.size > REMEMBERED_SCOPES) {
		const oldest = processMemory.keys().next().value;
		if (oldest !== undefined) processMemory.delete(oldest);
	}
	return false;
}
