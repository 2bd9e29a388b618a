import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prospectingApiPaginate } from '../../transport';
import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listSettings } from '../listSettings';
import { toItems } from '../output';
import { additionalQuery } from '../parameters';

const properties: INodeProperties[] = [...returnAllAndLimit, listOptions({ order: 'free' })];

const displayOptions = { show: { resource: ['customField'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const { paginate, options } = listSettings.call(this, i);
	const qs: IDataObject = { ...paginate.qs, ...additionalQuery.call(this, i, options) };
	const fields = await prospectingApiPaginate.call(this, '/custom-fields', { ...paginate, qs });
	return toItems(fields);
}
