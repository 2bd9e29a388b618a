/**
 * Bare loops of `fetch` calls: the same pages and the same creates the node makes, with no n8n in
 * between. They give the per-request time the floors are built from and the baseline the node's
 * overhead is measured against.
 */
import { measure, type Measured } from './measure';

export interface WalkQuery {
	pageSize: number;
	orderBy?: string;
	orderDirection?: 'asc' | 'desc';
}

export interface BareWalkResult {
	pages: number;
	records: number;
	ids: string[];
	statuses: Record<string, number>;
}

export function leadsUrl(baseUrl: string, apiKey: string, query: Record<string, string | number>): string {
	const url = new URL(`${baseUrl}/api/v1/leads`);
	url.searchParams.set('apiKey', apiKey);
	for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
	return url.toString();
}

/** Walks every page in sequence, like Return All, and stops at totalPages (bounded by maxPages). */
export async function bareWalk(
	baseUrl: string,
	apiKey: string,
	query: WalkQuery,
	maxPages = 10_000,
	keepIds = false,
): Promise<Measured<BareWalkResult>> {
	return await measure(async () => {
		const result: BareWalkResult = { pages: 0, records: 0, ids: [], statuses: {} };
		for (let page = 1; page <= maxPages; page++) {
			const response = await fetch(
				leadsUrl(baseUrl, apiKey, {
					limit: query.pageSize,
					page,
					orderBy: query.orderBy ?? 'createdAt',
					orderDirection: query.orderDirection ?? 'asc',
				}),
			);
			result.statuses[response.status] = (result.statuses[response.status] ?? 0) + 1;
			if (response.status !== 200) throw new Error(`bare walk: page ${page} answered ${response.status}`);
			const body = (await response.json()) as { data: Array<{ id: string }>; meta: { totalPages: number } };
			result.pages++;
			result.records += body.data.length;
			if (keepIds) for (const record of body.data) result.ids.push(String(record.id));
			if (page >= body.meta.totalPages || body.data.length < query.pageSize) break;
		}
		return result;
	});
}

export function benchLeadBody(runTag: string, index: number) {
	return {
		name: `${runTag} ${index}`,
		company: 'Benchmark Ltda',
		emails: [{ value: `${runTag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${index}@example.com`, label: 'work' }],
	};
}

/** Creates `count` leads one after another, as a bulk create does. */
export async function bareCreate(
	baseUrl: string,
	apiKey: string,
	runTag: string,
	count: number,
): Promise<Measured<{ created: number; statuses: Record<string, number> }>> {
	return await measure(async () => {
		const statuses: Record<string, number> = {};
		let created = 0;
		for (let i = 0; i < count; i++) {
			const response = await fetch(leadsUrl(baseUrl, apiKey, {}), {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(benchLeadBody(runTag, i)),
			});
			statuses[response.status] = (statuses[response.status] ?? 0) + 1;
			await response.arrayBuffer();
			if (response.status >= 200 && response.status < 300) created++;
			else throw new Error(`bare create: item ${i} answered ${response.status}`);
		}
		return { created, statuses };
	});
}
