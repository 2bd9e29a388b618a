import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { multiValueFilter } from '../common.descriptions';
import { multiValues, queryText } from '../parameters';

/** Filters that narrow which prospections are read, shared by Get Many and Get Conversion Rate. */
export const prospectionScopeFilters: INodeProperties[] = [
	{
		displayName: 'Lead ID',
		name: 'leadId',
		type: 'string',
		default: '',
		description: 'Only prospections of this lead',
	},
	multiValueFilter('Routine IDs', 'routineIds', 'prospections in these routines'),
];

/** The query of those filters, checked and named after their fields for errors. */
export function prospectionScopeQuery(
	this: IExecuteFunctions,
	i: number,
	filters: IDataObject,
): IDataObject {
	return {
		routineIds: multiValues.call(this, i, 'filters.routineIds', filters.routineIds),
		leadId: queryText.call(this, i, 'filters.leadId', filters.leadId),
	};
}
