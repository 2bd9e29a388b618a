import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prospectingApiPaginate } from '../../transport';
import { listOptions, multiValueFilter, returnAllAndLimit } from '../common.descriptions';
import { additionalQuery, listSettings, multiValues, queryText, toItems } from '../helpers';
import { simplifyLead, simplifyLeadProperties, simplifyLeadsWanted } from './simplify';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			multiValueFilter('Created By IDs', 'createdByIds', 'leads created by these users'),
			multiValueFilter('Routine IDs', 'routineIds', 'leads in these routines'),
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				description: 'Matches name, company, email and phone',
			},
			multiValueFilter('Source IDs', 'sourceIds', 'leads from these sources'),
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				description: 'Only leads with this status, as the service names it',
			},
		],
	},
	...simplifyLeadProperties,
	listOptions({ order: 'free', orderFallback: 'createdAt', multiValue: true }),
];

const displayOptions = { show: { resource: ['lead'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const { paginate, options } = listSettings.call(this, i, 'createdAt');
	const simplify = simplifyLeadsWanted.call(this, i);
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const qs: IDataObject = {
		...paginate.qs,
		search: queryText.call(this, i, 'filters.search', filters.search),
		status: queryText.call(this, i, 'filters.status', filters.status),
		sourceIds: multiValues.call(this, i, 'filters.sourceIds', filters.sourceIds),
		routineIds: multiValues.call(this, i, 'filters.routineIds', filters.routineIds),
		createdByIds: multiValues.call(this, i, 'filters.createdByIds', filters.createdByIds),
		...additionalQuery.call(this, i, options),
	};
	const leads = await prospectingApiPaginate.call(this, '/leads', { ...paginate, qs });
	return toItems(simplify ? leads.map(simplifyLead) : leads);
}
