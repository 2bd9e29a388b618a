import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, multiValueFilter, textFilter } from '../../shared/filters.description';
import { listOptions, returnAllAndLimit } from '../common.descriptions';
import { listRecords } from '../listRecords';
import { multiValues, queryText } from '../parameters';
import { simplifyLead, simplifyLeadProperties, simplifyLeadsWanted } from './simplify';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	filtersCollection([
		multiValueFilter('Created By IDs', 'createdByIds', 'leads created by these users'),
		multiValueFilter('Routine IDs', 'routineIds', 'leads in these routines'),
		textFilter('Search', 'search', 'Matches name, company, email and phone'),
		multiValueFilter('Source IDs', 'sourceIds', 'leads from these sources'),
		textFilter('Status', 'status', 'Only leads with this status, as the service names it'),
	]),
	...simplifyLeadProperties,
	listOptions({ order: 'free', orderFallback: 'createdAt', multiValue: true }),
];

const displayOptions = { show: { resource: ['lead'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const simplify = simplifyLeadsWanted.call(this, i);
	const items = await listRecords.call(this, i, {
		endpoint: '/leads',
		orderFallback: 'createdAt',
		filterQuery: (filters) => ({
			search: queryText.call(this, i, 'filters.search', filters.search),
			status: queryText.call(this, i, 'filters.status', filters.status),
			sourceIds: multiValues.call(this, i, 'filters.sourceIds', filters.sourceIds),
			routineIds: multiValues.call(this, i, 'filters.routineIds', filters.routineIds),
			createdByIds: multiValues.call(this, i, 'filters.createdByIds', filters.createdByIds),
		}),
	});
	return simplify ? items.map((item) => ({ ...item, json: simplifyLead(item.json) })) : items;
}
