import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MAX_ID_LENGTH } from '../shared/ids';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS } from '../transport/request';
import { isToolForm } from './toolForm';
import { inputError } from './inputError';

/** Longest value sent in a query string: longer ones make an address servers refuse. */
export const MAX_QUERY_VALUE_LENGTH = 2000;
/** Longest query parameter name. */
const MAX_QUERY_NAME_LENGTH = 200;

/** How a value of the wrong type is named in an error. */
function typeName(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	return typeof value;
}

/** A value quoted in an error, cut so a huge input does not make a huge message. */
export function quoted(value: unknown): string {
	const text = String(value);
	return text.length > 80 ? `"${text.slice(0, 80)}…" (${text.length} characters)` : `"${text}"`;
}

/**
 * A text parameter that may also arrive as a number from an expression. Objects, lists and
 * booleans are refused: they are a mistake in an expression, not a text.
 */
export function textValue(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	maxLength = Infinity,
): string {
	if (value === undefined || value === null) return '';
	let text: string;
	if (typeof value === 'string') text = value.trim();
	else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
	else throw inputError(this.getNode(), i, field, `expected text, got ${typeName(value)}`);
	if (text.length > maxLength) {
		throw inputError(
			this.getNode(),
			i,
			field,
			`${text.length} characters is too long (at most ${maxLength})`,
		);
	}
	return text;
}

/** A text sent in the query string (filters). */
export function queryText(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
): string {
	return textValue.call(this, i, field, value, MAX_QUERY_VALUE_LENGTH);
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARACTERS = /^\+?[0-9().\-\s]+$/;
/** The longest address (RFC 5321); checked before the pattern, which is slow on huge texts. */
const MAX_EMAIL_LENGTH = 254;
/** Far more than any phone number with punctuation. */
const MAX_PHONE_LENGTH = 40;
/** The digits of a phone number: a short local number at the least, an international one with extension at most. */
const MIN_PHONE_DIGITS = 6;
const MAX_PHONE_DIGITS = 20;

/** An e-mail address or a phone number ('' when empty), refused with the field named when it is not one. */
export function contactValue(this: IExecuteFunctions, i: number, field: string, value: unknown, kind: 'email' | 'phone'): string {
	const text = textValue.call(this, i, field, value);
	if (text === '') return text;
	if (kind === 'email') {
		if (text.length <= MAX_EMAIL_LENGTH && EMAIL_SHAPE.test(text)) return text;
		throw inputError(this.getNode(), i, field, `${quoted(text)} is not a valid email address`);
	}
	const digits = text.replace(/\D/g, '').length;
	if (text.length <= MAX_PHONE_LENGTH && PHONE_CHARACTERS.test(text) && digits >= MIN_PHONE_DIGITS && digits <= MAX_PHONE_DIGITS) return text;
	throw inputError(this.getNode(), i, field, `${quoted(text)} is not a valid phone number (digits, spaces, + ( ) - . only; 6 to 20 digits)`);
}

/** Refuses an empty text where a value is required. */
export function requireValue(this: IExecuteFunctions, i: number, field: string, text: string): string {
	if (text === '') throw inputError(this.getNode(), i, field, 'a value is required');
	return text;
}

/** An ID sent in a body (a lead, a salesperson). */
export function idText(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	required: boolean,
): string {
	const text = textValue.call(this, i, field, value, MAX_ID_LENGTH);
	return required ? requireValue.call(this, i, field, text) : text;
}

/** A multi-value filter: comma-separated text or a list of texts/numbers. */
export function multiValues(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
): string[] {
	if (value === undefined || value === null || value === '') return [];
	const entries = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(',')
			: [value];
	return entries
		.map((entry, index) => {
			if (typeof entry === 'string' || (typeof entry === 'number' && Number.isFinite(entry))) {
				const text = String(entry).trim();
				if (text.length > MAX_QUERY_VALUE_LENGTH) {
					throw inputError(
						this.getNode(),
						i,
						`${field}[${index}]`,
						`${text.length} characters is too long (at most ${MAX_QUERY_VALUE_LENGTH})`,
					);
				}
				return text;
			}
			throw inputError(
				this.getNode(),
				i,
				`${field}[${index}]`,
				`expected text, got ${typeName(entry)}`,
			);
		})
		.filter((entry) => entry !== '');
}

/** The name of a query parameter typed by the user: never the API key's. */
export function queryName(this: IExecuteFunctions, i: number, field: string, value: unknown): string {
	const name = textValue.call(this, i, field, value, MAX_QUERY_NAME_LENGTH);
	if (name === '') throw inputError(this.getNode(), i, field, 'a parameter name is required');
	// `apiKey[]` or `apikey[0]` would be read as the key by many servers.
	if (name.replace(/\[.*$/, '').toLowerCase() === 'apikey') {
		throw inputError(this.getNode(), i, field, 'the API key comes from the credential');
	}
	return name;
}

/** A boolean parameter; "true" / "false" texts from expressions are read as such. */
export function booleanValue(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	fallback: boolean,
): boolean {
	if (value === undefined || value === null || value === '') return fallback;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === 'true') return true;
		if (text === 'false') return false;
		if (text === '') return fallback;
	}
	throw inputError(
		this.getNode(),
		i,
		field,
		`expected true or false, got ${typeof value === 'string' ? quoted(value) : typeName(value)}`,
	);
}

/** Checks a value against a fixed set (values from expressions are not checked by the editor). */
export function oneOf<T extends string>(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	allowed: readonly T[],
	fallback: T,
): T {
	if (value === undefined || value === null) return fallback;
	if (typeof value !== 'string') {
		throw inputError(
			this.getNode(),
			i,
			field,
			`expected one of ${allowed.join(', ')}, got ${typeName(value)}`,
		);
	}
	const text = value.trim();
	if (text === '') return fallback;
	const match = allowed.find((entry) => entry.toLowerCase() === text.toLowerCase());
	if (!match) {
		throw inputError(this.getNode(), i, field, `${quoted(text)} is not one of ${allowed.join(', ')}`);
	}
	return match;
}

/** Like `oneOf`, for a choice the user may leave out: undefined when absent or blank. */
export function optionalOneOf<T extends string>(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	allowed: readonly T[],
	fallback: T,
): T | undefined {
	if (value === undefined || (typeof value === 'string' && value.trim() === '')) return undefined;
	return oneOf.call(this, i, field, value, allowed, fallback) as T;
}

/** A number from a number or a numeric text; undefined when blank. */
function numberOf(value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number') return value;
	if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		return Number(value);
	}
	return NaN;
}

function describeValue(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? quoted(value) : typeName(value);
}

export function positiveInteger(
	this: IExecuteFunctions,
	i: number,
	field: string,
	value: unknown,
	fallback: number,
): number {
	const number = numberOf(value);
	if (number === undefined) return fallback;
	if (!Number.isFinite(number) || number < 1 || Math.floor(number) !== number) {
		throw inputError(
			this.getNode(),
			i,
			field,
			`expected a whole number of at least 1, got ${describeValue(value)}`,
		);
	}
	return number;
}

/** An agent waits on a tool's answer: unless the option says otherwise, a tool call waits this long at most. */
export const TOOL_MAX_RATE_LIMIT_WAIT_SECONDS = 30;

/**
 * The Max Rate Limit Wait option as request settings. In the tool form it is one deadline for the whole tool call,
 * every page and call it makes included (an agent is waiting on the answer); in workflows it bounds the waits after
 * a refusal (a spike's tail is paced, not failed). Read once per item, so every call of the item shares it.
 */
export function maxRateLimitWait(
	this: IExecuteFunctions,
	i: number,
	options: IDataObject,
): { maxRateLimitWaitSeconds: number; deadlineAt?: number } {
	const asTool = isToolForm.call(this);
	const fallback = asTool ? TOOL_MAX_RATE_LIMIT_WAIT_SECONDS : DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS;
	const seconds = secondsOption.call(this, i, options, 'maxRateLimitWait', fallback);
	return asTool ? { maxRateLimitWaitSeconds: seconds, deadlineAt: Date.now() + seconds * 1000 } : { maxRateLimitWaitSeconds: seconds };
}

/** A number of seconds from the Options (0 or more); blank or missing means `fallback`. */
export function secondsOption(
	this: IExecuteFunctions,
	i: number,
	options: IDataObject,
	name: string,
	fallback: number,
): number {
	const value = options[name];
	const number = numberOf(value);
	if (number === undefined) return fallback;
	if (!Number.isFinite(number) || number < 0) {
		throw inputError(
			this.getNode(),
			i,
			`options.${name}`,
			`expected seconds (0 or more), got ${describeValue(value)}`,
		);
	}
	return number;
}

/** How long a write waits for its answer before the answer counts as lost, as the service's own gateways do. */
export const DEFAULT_ANSWER_TIMEOUT_SECONDS = 60;

/** The request settings of one write for item `i`: the call settings and the Answer Timeout option. */
export function writeSettings(
	this: IExecuteFunctions,
	i: number,
): { itemIndex: number; maxRateLimitWaitSeconds: number; deadlineAt?: number; timeoutMs: number } {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const timeout = secondsOption.call(this, i, options, 'timeout', DEFAULT_ANSWER_TIMEOUT_SECONDS);
	if (timeout === 0) {
		throw inputError(this.getNode(), i, 'options.timeout', 'expected seconds (more than 0), got 0');
	}
	return {
		itemIndex: i,
		...maxRateLimitWait.call(this, i, options),
		timeoutMs: timeout * 1000,
	};
}

/** The request settings of one call for item `i`: the item, and its Max Rate Limit Wait option. */
export function callSettings(
	this: IExecuteFunctions,
	i: number,
): { itemIndex: number; maxRateLimitWaitSeconds: number; deadlineAt?: number } {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	return { itemIndex: i, ...maxRateLimitWait.call(this, i, options) };
}

/** Query parameters from the "Additional Query Parameters" option. */
export function additionalQuery(
	this: IExecuteFunctions,
	i: number,
	options: IDataObject,
): IDataObject {
	const collection = options.additionalQuery as
		{ parameters?: Array<{ name?: unknown; value?: unknown }> } | undefined;
	const query: IDataObject = {};
	// n8n gives a fixed collection its declared shape (a list of { name, value }) whatever the workflow held.
	(collection?.parameters ?? []).forEach((parameter, index) => {
		const field = `options.additionalQuery[${index}]`;
		const name = queryName.call(this, i, `${field}.name`, parameter.name);
		const value = parameter.value;
		// A true/false from an expression is a legitimate query value.
		const text = Array.isArray(value)
			? multiValues.call(this, i, `${field}.value`, value)
			: typeof value === 'boolean'
				? String(value)
				: queryText.call(this, i, `${field}.value`, value);
		// A name given twice becomes a multi-value parameter.
		if (query[name] !== undefined) {
			query[name] = ([] as unknown[]).concat(query[name], text) as string[];
		} else {
			query[name] = text;
		}
	});
	return query;
}
