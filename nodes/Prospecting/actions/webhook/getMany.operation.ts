import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callOptions, returnAllAndLimit } from '../common.descriptions';
import { maxRateLimitWait, toItems } from '../helpers';
import { listWebhooks } from './list';

const properties: INodeProperties[] = [...returnAllAndLimit, callOptions()];

const displayOptions = { show: { resource: ['webhook'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	const webhooks = await listWebhooks.call(this, {
		itemIndex: i,
		maxRateLimitWaitSeconds: maxRateLimitWait.call(this, i, options),
	});
	if (returnAll) return toItems(webhooks);
	const limit = Number(this.getNodeParameter('limit', i, 50));
	return toItems(webhooks.slice(0, Number.isFinite(limit) && limit > 0 ? limit : 50));
}
