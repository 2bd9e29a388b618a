import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { isBlank, isContactItem } from './output';
import { booleanValue, multiValues, oneOf } from './parameters';

export { isToolForm } from './toolForm';

function compactValue(value: unknown): unknown {
	if (isBlank(value)) return undefined;
	if (Array.isArray(value)) {
		const items = value
			.map((entry) => (isContactItem(entry) ? entry.value : compactValue(entry)))
			.filter((entry) => !isBlank(entry));
		return items.length ? items : undefined;
	}
	if (typeof value === 'object') {
		const record = compactRecord(value as IDataObject);
		return Object.keys(record).length ? record : undefined;
	}
	return value;
}

/** A record without empty fields, contact items ({ value, label }) reduced to their values. */
export function compactRecord(record: IDataObject): IDataObject {
	const compact: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		const kept = compactValue(value);
		if (kept !== undefined) compact[key] = kept as IDataObject[keyof IDataObject];
	}
	return compact;
}

const AGENT_OUTPUT_MODES = ['simplified', 'raw', 'selected'] as const;

type AgentOutputMode = (typeof AGENT_OUTPUT_MODES)[number];

export type AgentOutput = { mode: 'simplified' | 'raw' } | { mode: 'selected'; fields: string[] };

/**
 * What the tool form returns to the agent for item `i`, checked before any call: the Output choice (version 2), or
 * version 1's Simplify toggle (on by default for lists) where there is no Output choice.
 */
export function agentOutput(this: IExecuteFunctions, i: number): AgentOutput {
	const output = this.getNodeParameter('output', i, '') as unknown;
	if (output === undefined || output === null || output === '') {
		const simplify = this.getNodeParameter('simplify', i, false);
		return {
			mode: booleanValue.call(this, i, 'simplify', simplify, false) ? 'simplified' : 'raw',
		};
	}
	const mode = oneOf.call(
		this,
		i,
		'output',
		output,
		AGENT_OUTPUT_MODES,
		'simplified',
	) as AgentOutputMode;
	if (mode !== 'selected') return { mode };
	return {
		mode,
		fields: multiValues.call(this, i, 'fields', this.getNodeParameter('fields', i, '')),
	};
}

/** A record with only these fields, and its id always. */
export function selectFields(record: IDataObject, fields: string[]): IDataObject {
	const selected: IDataObject = {};
	for (const field of ['id', ...fields]) {
		if (record[field] !== undefined) selected[field] = record[field];
	}
	return selected;
}

/** The records of one item as the agent asked for them. */
export function shapeForAgent(
	results: INodeExecutionData[],
	output: AgentOutput,
): INodeExecutionData[] {
	if (output.mode === 'raw') return results;
	return results.map((result) => ({
		...result,
		json:
			output.mode === 'selected'
				? selectFields(result.json, output.fields)
				: compactRecord(result.json),
	}));
}

/** Whether the tool form's Errors option asks to raise errors as tool errors rather than answer them as text. */
export function raiseToolErrors(this: IExecuteFunctions, i: number): boolean {
	try {
		return this.getNodeParameter('toolErrors', i, 'text') === 'raise';
	} catch {
		return false;
	}
}

/**
 * The text of an error for the model: its message with the description (the fields the service rejected, in its
 * own words, or the parameter the node refused) joined to it.
 */
export function messageForAgent(message: string, description: unknown): string {
	const details = typeof description === 'string' ? description.trim() : '';
	if (!details || message.includes(details)) return message;
	return `${message}\n${details}`;
}
