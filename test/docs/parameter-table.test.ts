/**
 * docs/dev/behaviour.md's "Parameter names (workflow JSON)" table is what users write workflow JSON from: every parameter
 * an operation shows (in any node version, outside the tool form) must be in its row, and every name in the row must
 * be a parameter of that operation, or an option of one of its collections.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';

const behaviour = readFileSync(path.join(__dirname, '..', '..', 'docs', 'dev', 'behaviour.md'), 'utf8');
const properties = new Prospecting().description.properties;

/** The table's rows: resource, operation and the names in the Parameters cell (`list options` as that word). */
const rows = [...behaviour.matchAll(/^\| `(\w+)` \| `(\w+)` \| (.+) \|$/gm)].map(([, resource, operation, cell]) => ({
	resource,
	operation,
	top: [...cell.replace(/\{[^}]*\}/g, '').matchAll(/`(\w+)`/g)].map((match) => match[1]),
	nested: [...cell.matchAll(/\{([^}]*)\}/g)].flatMap((group) => [...group[1].matchAll(/`(\w+)`/g)].map((match) => match[1])),
	listOptions: cell.includes('list options'),
}));

const listOptionsLine = behaviour.slice(behaviour.indexOf('List options (the `options` collection'));
const listOptions = [...listOptionsLine.split('\n\n')[0].matchAll(/(?:^|, )`(\w+)`\s*\(/gm)].map((match) => match[1]);

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	const includes = (key: string, value: unknown) => (show[key] as unknown[] | undefined)?.includes(value) ?? false;
	// Notices are not parameters, and parameters of the tool form only are not part of a workflow's node.
	return includes('resource', resource) && includes('operation', operation) && !includes('@tool', true) && property.type !== 'notice';
}

function optionNames(property: INodeProperties): string[] {
	return (property.options ?? []).flatMap((option) => ('name' in option && 'displayName' in option ? [String(option.name)] : []));
}

describe("docs/dev/behaviour.md's parameter table", () => {
	it('has a row for every operation of every resource', () => {
		const resources = (properties.find((property) => property.name === 'resource')?.options ?? []).map((option) => String((option as { value: unknown }).value));
		const expected = resources.flatMap((resource) =>
			properties
				.filter((property) => property.name === 'operation' && (property.displayOptions?.show?.resource as unknown[] | undefined)?.includes(resource))
				.flatMap((property) => (property.options ?? []).map((option) => `${resource}.${String((option as { value: unknown }).value)}`)),
		);
		expect(rows.map((row) => `${row.resource}.${row.operation}`).sort()).toEqual([...new Set(expected)].sort());
	});

	it.each(rows.map((row) => [`${row.resource}.${row.operation}`, row] as const))('%s lists exactly the parameters it shows', (_, row) => {
		const shown = properties.filter((property) => shownFor(property, row.resource, row.operation));
		const topLevel = [...new Set(shown.map((property) => property.name))].filter((name) => name !== 'operation');
		expect([...new Set(row.top)].sort()).toEqual(topLevel.sort());
		const collectionOptions = new Set(shown.flatMap(optionNames));
		expect(row.nested.filter((name) => !collectionOptions.has(name))).toEqual([]);
		// "list options" stands for the list options described below the table, of which a list has some.
		const documented = new Set([...row.nested, ...(row.listOptions ? listOptions : [])]);
		const undocumented = shown
			.filter((property) => property.type === 'collection')
			.flatMap(optionNames)
			.filter((name) => !documented.has(name));
		expect(undocumented).toEqual([]);
	});
});
