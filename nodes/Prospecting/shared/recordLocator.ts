import type { INodeProperties } from 'n8n-workflow';

/** A record picker: "From List" with search first, then "By ID". The service shows no record URLs, so no "By URL". */
export function recordLocator(settings: {
	displayName: string;
	name: string;
	searchListMethod: string;
	description: string;
	required?: boolean;
	placeholder?: string;
}): INodeProperties {
	return {
		displayName: settings.displayName,
		name: settings.name,
		type: 'resourceLocator',
		required: settings.required ?? false,
		default: { mode: 'list', value: '' },
		description: settings.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: {
					searchListMethod: settings.searchListMethod,
					searchable: true,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: settings.placeholder ?? 'e.g. 6512ab34cd',
			},
		],
	};
}

/** The id inside a picker's value (`{ __rl, mode, value }`), or the value itself when it is a plain text. */
export function locatorValue(value: unknown): unknown {
	if (value && typeof value === 'object' && !Array.isArray(value) && 'value' in value) {
		return (value as { value: unknown }).value;
	}
	return value;
}
