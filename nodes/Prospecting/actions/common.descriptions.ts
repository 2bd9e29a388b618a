import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FROM_VERSION_2, inVersions, VERSION_1_ONLY } from '../shared/versions';

/** What an AI agent gets back from the tool form from version 2: Simplified, Raw or Selected Fields, the id always kept. */
export const agentOutputChoice: INodeProperties[] = [
	inVersions(FROM_VERSION_2, {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simplified',
		displayOptions: { show: { '@tool': [true] } },
		options: [
			{
				name: 'Simplified',
				value: 'simplified',
				description: 'Compact records: empty fields left out and contacts as plain values',
			},
			{
				name: 'Raw',
				value: 'raw',
				description: 'Records as the service sends them',
			},
			{
				name: 'Selected Fields',
				value: 'selected',
				description: 'Only the fields named below, and the ID',
			},
		],
		description: 'What the AI agent gets back',
	}),
	inVersions(FROM_VERSION_2, {
		displayName: 'Fields',
		name: 'fields',
		type: 'string',
		default: '',
		placeholder: 'name,emails,company',
		displayOptions: { show: { '@tool': [true], output: ['selected'] } },
		description: 'Names of the fields to return, separated by commas. The ID is always returned.',
	}),
];

/** Return All / Limit, as every n8n list operation has them. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
	// The tool form's Simplify of version 1, as its saved workflows hold it.
	inVersions(VERSION_1_ONLY, {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@tool': [true] } },
		description:
			'Whether to return compact records to the AI agent: empty fields left out and contacts as plain values',
	}),
	...agentOutputChoice,
];

/**
 * How the tool form answers an error: as text (n8n's AI Agent on 1.x stops when a tool throws) or as a tool error
 * (an MCP client sees `isError: true`). Shown only in the tool form; a fixed choice, never an argument of the model.
 */
export const toolErrorsProperty: INodeProperties = {
	displayName: 'Errors',
	name: 'toolErrors',
	type: 'options',
	noDataExpression: true,
	default: 'text',
	displayOptions: { show: { '@tool': [true] } },
	description: 'How the tool answers an error: a bad argument, the service\'s refusal or a wait past Max Rate Limit Wait',
	options: [
		{
			name: 'Answer as Text',
			value: 'text',
			description: "The error's message and field as the tool's answer, for n8n's AI Agent",
		},
		{
			name: 'Raise as Tool Error',
			value: 'raise',
			description: 'The tool fails with the message and field: MCP clients see a tool error (isError)',
		},
	],
};

/** Max Rate Limit Wait in workflows: the waits after a refusal. */
const workflowMaxRateLimitWait: INodeProperties = {
	displayName: 'Max Rate Limit Wait (Seconds)',
	name: 'maxRateLimitWait',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 300,
	displayOptions: { show: { '@tool': [false] } },
	description:
		'How long a call may wait in total after the service answers 429 (too many requests) before the item fails. Waiting for its turn within the rate limit does not count, so a spike is paced rather than failed.',
};

/** Max Rate Limit Wait in the tool form: the whole tool call, with the same default whether the option is added or not. */
const toolMaxRateLimitWait: INodeProperties = {
	...workflowMaxRateLimitWait,
	default: 30,
	displayOptions: { show: { '@tool': [true] } },
	description:
		'How long the whole tool call may take waiting on the rate limit: every page and call, its turn, pacing and refusals. Past it the call fails at once, saying how long it would have to wait, so the agent gets an answer.',
};

export const maxRateLimitWaitOptions: INodeProperties[] = [workflowMaxRateLimitWait, toolMaxRateLimitWait];

export const additionalQueryOption: INodeProperties = {
	displayName: 'Additional Query Parameters',
	name: 'additionalQuery',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Parameter',
	default: {},
	description:
		'Query parameters sent as they are, for filters this node does not name. They override parameters of the same name.',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameters',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
				},
			],
		},
	],
};

export const multiValueFormatOption: INodeProperties = {
	displayName: 'Multi-Value Format',
	name: 'multiValueFormat',
	type: 'options',
	default: 'repeat',
	description: 'How a filter with several values is written in the query string',
	options: [
		{
			name: 'Brackets',
			value: 'brackets',
			description: 'For example routineIds[]=a&routineIds[]=b',
		},
		{
			name: 'Comma-Separated',
			value: 'comma',
			description: 'For example routineIds=a,b',
		},
		{
			name: 'Repeat',
			value: 'repeat',
			description: 'For example routineIds=a&routineIds=b',
		},
	],
};

const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 100,
	description: 'How many records to ask for per page; smaller with Limit when the limit is smaller',
};

const orderByOption = (fallback: string): INodeProperties => ({
	displayName: 'Order By',
	name: 'orderBy',
	type: 'string',
	default: fallback,
	placeholder: 'createdAt',
	description: fallback
		? `Field to sort by, kept on every page. Sorted by ${fallback} when not set, so records added during a walk come last and none is skipped.`
		: 'Field to sort by, kept on every page',
});

const orderDirectionOption: INodeProperties = {
	displayName: 'Order Direction',
	name: 'orderDirection',
	type: 'options',
	default: 'asc',
	options: [
		{ name: 'Ascending', value: 'asc' },
		{ name: 'Descending', value: 'desc' },
	],
};

function byDisplayName(a: INodeProperties, b: INodeProperties): number {
	return a.displayName.localeCompare(b.displayName);
}

/**
 * The Options collection of a paginated list. `orderFallback` is the order used when none is
 * set ('' to send no order); `multiValue` adds the multi-value format choice.
 */
export function listOptions(settings: {
	order: 'fixed' | 'free' | 'none';
	orderFallback?: string;
	multiValue?: boolean;
	extra?: INodeProperties[];
}): INodeProperties {
	const options: INodeProperties[] = [
		additionalQueryOption,
		...maxRateLimitWaitOptions,
		pageSizeOption,
	];
	if (settings.order !== 'none') {
		options.push(orderByOption(settings.orderFallback ?? ''), orderDirectionOption);
	}
	if (settings.multiValue) options.push(multiValueFormatOption);
	options.push(...(settings.extra ?? []));
	return optionsCollection(options);
}

/** The Options collection of an operation that is not a list. */
export function callOptions(extra: INodeProperties[] = []): INodeProperties {
	return optionsCollection([...maxRateLimitWaitOptions, ...extra]);
}

export const answerTimeoutOption: INodeProperties = {
	displayName: 'Answer Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 60,
	description:
		'How long to wait for the answer to this write. Past it the answer counts as lost: the write may still be applied, so it is checked, never sent again blindly.',
};

/** The Options collection of a write: Max Rate Limit Wait, Answer Timeout and the operation's own. */
export function writeOptions(extra: INodeProperties[] = []): INodeProperties {
	return optionsCollection([...maxRateLimitWaitOptions, answerTimeoutOption, ...extra]);
}

function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: options.sort(byDisplayName),
	};
}

/** The Additional Fields collection of a write. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/** The Operation selector of one resource. */
export function operationSelector(
	resource: string,
	operations: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations,
		default: defaultOperation,
	};
}
