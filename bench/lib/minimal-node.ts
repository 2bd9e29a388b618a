/**
 * A minimal n8n node that walks the same pages with nothing but n8n-core's own request helper
 * (httpRequestWithAuthentication with the prospectingApi credential): no rate budget, no retries,
 * no redaction, no validation. It separates what n8n itself costs per request (its axios-based
 * helper opens a new agent, and so a new connection, per request; the credential's generic
 * authentication is resolved as an expression on every call) from what the package's transport adds.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { registerNodeType } from '../../dev/harness';

export const MINIMAL_WALK_NODE_TYPE = 'bench.minimalWalk';

class MinimalWalk implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Minimal Walk',
		name: 'minimalWalk',
		group: ['transform'],
		version: 1,
		description: 'Walks GET /api/v1/leads with n8n-core’s request helper only',
		defaults: { name: 'Minimal Walk' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'prospectingApi', required: true }],
		properties: [{ displayName: 'Page Size', name: 'pageSize', type: 'number', default: 100 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials<{ baseUrl: string }>('prospectingApi');
		const pageSize = this.getNodeParameter('pageSize', 0) as number;
		const records: IDataObject[] = [];
		for (let page = 1; page <= 10_000; page++) {
			const body = (await this.helpers.httpRequestWithAuthentication.call(this, 'prospectingApi', {
				method: 'GET',
				baseURL: `${credentials.baseUrl}/api/v1`,
				url: '/leads',
				qs: { limit: pageSize, page, orderBy: 'createdAt', orderDirection: 'asc' },
				json: true,
			})) as { data: IDataObject[]; meta: { totalPages: number } };
			for (const record of body.data) records.push(record);
			if (page >= body.meta.totalPages || body.data.length < pageSize) break;
		}
		return [this.helpers.returnJsonArray(records)];
	}
}

let registered = false;

export function registerMinimalWalk(): void {
	if (registered) return;
	registerNodeType(MINIMAL_WALK_NODE_TYPE, new MinimalWalk());
	registered = true;
}
