import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { booleanValue } from './parameters';


/**
 * Whether the node runs as an AI agent's tool. n8n builds the tool form of a node as a type whose name ends
 * in "Tool" (prospectingTool), and decides its `@tool` display options the same way.
 */
export function isToolForm(this: IExecuteFunctions): boolean {
	return String(this.getNode().type ?? '').endsWith('Tool');
}

function isContactItem(value: unknown): value is { value: unknown } {
	return !!value && typeof value === 'object' && !Array.isArray(value) && 'value' in value;
}

function compactValue(value: unknown): unknown {
	if (value === null || value === undefined || value === '') return undefined;
	if (Array.isArray(value)) {
		const items = value
			.map((entry) => (isContactItem(entry) ? entry.value : compactValue(entry)))
			.filter((entry) => entry !== undefined && entry !== null && entry !== '');
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

/** Whether the tool form's Simplify (on by default for lists) asks for compact records; checked before any call. */
export function simplifyForAgent(this: IExecuteFunctions, i: number): boolean {
	return booleanValue.call(this, i, 'simplify', this.getNodeParameter('simplify', i, false), false);
}

/** Whether the tool form's Errors option asks to raise errors as tool errors rather than answer them as text. */
export function raiseToolErrors(this: IExecuteFunctions, i: number): boolean {
	try {
		return this.getNodeParameter('toolErrors', i, 'text') === 'raise';
	} catch {
		return false;
	}
}

export function compactItems(results: INodeExecutionData[]): INodeExecutionData[] {
	return results.map((result) => ({ ...result, json: compactRecord(result.json) }));
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
