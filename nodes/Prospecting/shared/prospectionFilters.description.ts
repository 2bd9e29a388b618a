import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { filtersCollection, multiValueFilter } from './filters.description';
import { recordLocator } from './recordLocator';
import { FROM_VERSION_2, inVersions, VERSION_1_ONLY } from './versions';

const LEAD_FILTER_DESCRIPTION = 'Only prospections of this lead';

const routineIdsFilter = multiValueFilter(
	'Routine IDs',
	'routineIds',
	'prospections in these routines',
);

/** Version 1: the lead's id as text. */
const leadIdFilter: INodeProperties = {
	displayName: 'Lead ID',
	name: 'leadId',
	type: 'string',
	default: '',
	description: LEAD_FILTER_DESCRIPTION,
};

/** Version 2: the lead picked from a list. */
const leadFilter = recordLocator({
	displayName: 'Lead',
	name: 'leadId',
	searchListMethod: 'searchLeads',
	description: `${LEAD_FILTER_DESCRIPTION}. Search by name, company, email or phone.`,
});

/**
 * The Filters collection of a prospection list (Get Many, Get Conversion Rate, the polling trigger), once per node
 * version: version 2 picks the lead from a list. `extra` filters come after the scope filters.
 */
export function prospectionFilterCollections(
	extra: INodeProperties[] = [],
	displayOptions: IDisplayOptions = {},
): INodeProperties[] {
	const collection = (options: INodeProperties[]) =>
		filtersCollection([...options, ...extra], displayOptions);
	return [
		inVersions(VERSION_1_ONLY, collection([leadIdFilter, routineIdsFilter])),
		inVersions(FROM_VERSION_2, collection([leadFilter, routineIdsFilter])),
	];
}
