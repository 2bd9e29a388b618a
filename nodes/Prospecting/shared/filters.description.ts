import type { INodeProperties } from 'n8n-workflow';

/**
 * The Filters parameters of a list, as the action node's list operations and the polling trigger show them:
 * the same field names mean the same query parameter in both nodes.
 */

/** A one-text filter. */
export function textFilter(displayName: string, name: string, description: string): INodeProperties {
	return { displayName, name, type: 'string', default: '', description };
}

/** The Filters collection of a list; `displayOptions` where it shows only for some choices. */
export function filtersCollection(
	options: INodeProperties[],
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		...(displayOptions ? { displayOptions } : {}),
		options,
	};
}

/** A multi-value filter: a comma-separated text, or a list from an expression. */
export function multiValueFilter(displayName: string, name: string, what: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: 'id1,id2',
		description: `Only ${what}. Several values separated by commas, or a list from an expression.`,
	};
}
