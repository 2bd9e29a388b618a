import type { DisplayCondition, INodeProperties } from 'n8n-workflow';

/**
 * Version 2 of the nodes picks single records from a list and simplifies leads by default. Version 1 keeps the
 * plain-text ids and the output its saved workflows were built on.
 */
export const VERSION_1_ONLY = { '@version': [1] };
export const FROM_VERSION_2 = {
	'@version': [{ _cnd: { gte: 2 } } as DisplayCondition],
};

/** A parameter shown only in the given versions (merged with its other display conditions). */
export function inVersions(
	versions: typeof VERSION_1_ONLY | typeof FROM_VERSION_2,
	property: INodeProperties,
): INodeProperties {
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, ...versions },
		},
	};
}
