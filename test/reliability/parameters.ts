/** Every parameter of every operation, read from the node's own description, as dotted paths. */
import type { INodeProperties } from 'n8n-workflow';

import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';

export interface OperationParameters {
	resource: string;
	operation: string;
	/** e.g. 'name', 'filters.search', 'additionalFields.emails.values.value'. */
	paths: string[];
}

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show;
	if (!show) return false;
	// The node as placed in a workflow, not its AI-tool form (test/nodes/tool-form.test.ts covers that one).
	if (show['@tool'] && !(show['@tool'] as unknown[]).includes(false)) return false;
	const resources = show.resource as unknown[] | undefined;
	const operations = show.operation as unknown[] | undefined;
	return Boolean(resources?.includes(resource) && operations?.includes(operation));
}

/** The leaf parameters under a property: collections and fixed collections are opened up. */
function leafPaths(property: INodeProperties, prefix = ''): string[] {
	const path = `${prefix}${property.name}`;
	if (property.type === 'notice') return [];
	if (property.type === 'collection') {
		return (property.options as INodeProperties[]).flatMap((child) =>
			leafPaths(child, `${path}.`),
		);
	}
	if (property.type === 'fixedCollection') {
		return (property.options as Array<{ name: string; values: INodeProperties[] }>).flatMap(
			(group) => group.values.flatMap((child) => leafPaths(child, `${path}.${group.name}.`)),
		);
	}
	return [path];
}

/** Every (resource, operation) the node offers, with every parameter shown for it. */
export function operationParameters(): OperationParameters[] {
	const properties = new Prospecting().description.properties;
	const resourceProperty = properties.find((property) => property.name === 'resource');
	const resources = (resourceProperty?.options as Array<{ value: string }>).map(
		(option) => option.value,
	);
	return resources.flatMap((resource) => {
		const operationProperty = properties.find(
			(property) =>
				property.name === 'operation' &&
				(property.displayOptions?.show?.resource as unknown[] | undefined)?.includes(resource),
		);
		const operations = (operationProperty?.options as Array<{ value: string }>).map(
			(option) => option.value,
		);
		return operations.map((operation) => ({
			resource,
			operation,
			// A parameter described once per node version is one path.
			paths: [
				...new Set(
					properties
						.filter((property) => shownFor(property, resource, operation))
						.flatMap((property) => leafPaths(property)),
				),
			],
		}));
	});
}
