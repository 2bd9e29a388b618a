import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listRecords } from '../listRecords';

const properties: INodeProperties[] = [...returnAllAndLimit, listOptions({ order: 'free' })];

const displayOptions = { show: { resource: ['customField'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await listRecords.call(this, i, { endpoint: '/custom-fields' });
}
