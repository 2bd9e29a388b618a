import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listWebhooks } from '../../shared/webhooks';
import { callOptions, returnAllAndLimit } from '../common.descriptions';
import { returnAllAndLimitValues } from '../listSettings';
import { toItems } from '../output';
import { callSettings } from '../parameters';

const properties: INodeProperties[] = [...returnAllAndLimit, callOptions()];

const displayOptions = { show: { resource: ['webhook'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const { returnAll, limit } = returnAllAndLimitValues.call(this, i);
	const webhooks = await listWebhooks.call(this, callSettings.call(this, i));
	return toItems(returnAll ? webhooks : webhooks.slice(0, limit));
}
