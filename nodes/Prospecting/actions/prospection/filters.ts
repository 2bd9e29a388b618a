import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { locatorValue } from '../../shared/recordLocator';
import { multiValues, queryText } from '../parameters';

/**
 * The query of a prospection list's scope filters (their parameters: shared/prospectionFilters.description.ts),
 * checked and named after their fields for errors.
 */
export function prospectionScopeQuery(
	this: IExecuteFunctions,
	i: number,
	filters: IDataObject,
): IDataObject {
	return {
		routineIds: multiValues.call(this, i, 'filters.routineIds', filters.routineIds),
		leadId: queryText.call(this, i, 'filters.leadId', locatorValue(filters.leadId)),
	};
}
