/**
 * The n8n error users see: built from plain values free of the API key, naming the call and the item. What each
 * failure says is in statusError.ts, networkError.ts, unusableAnswerError.ts and rateLimitError.ts.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redactText, redactValue } from './secrets';

/** What went wrong with one call. */
export interface CallFailure {
	method: string;
	/** Path below /api/v1, without query string. */
	endpoint: string;
	itemIndex?: number;
	/** Set when the service answered. */
	status?: number;
	body?: unknown;
	/** The answer's Content-Type: only JSON or one short line of text/plain is ever quoted. */
	contentType?: unknown;
	/** The Location of a 3xx answer (redirects are never followed). */
	location?: unknown;
	/** Network error code (ECONNRESET, ETIMEDOUT, ...) when the service did not answer. */
	code?: string;
	/** e.g. 'Routine "rt_1"', used to name the missing record on 404. */
	recordLabel?: string;
	/** How many attempts were made. */
	attempts?: number;
}

/** The call and its item, as the last line of a description ends: `(item 0, POST /leads)`. */
export function callAndItem(failure: Pick<CallFailure, 'itemIndex' | 'method' | 'endpoint'>): string {
	const item = failure.itemIndex !== undefined ? `item ${failure.itemIndex}, ` : '';
	return `(${item}${failure.method} ${failure.endpoint})`;
}

/** ` after 5 attempts`, or nothing for one. */
export const afterAttempts = (attempts: number | undefined): string =>
	attempts && attempts > 1 ? ` after ${attempts} attempts` : '';

/**
 * Builds a NodeApiError from plain, already redacted values. The raw HTTP error is never
 * passed in: n8n would copy its request config (and so the key in the URL) into the error.
 */
export function buildApiError(
	node: INode,
	parts: {
		message: string;
		description?: string;
		httpCode?: string;
		itemIndex?: number;
		details?: JsonObject;
		secret?: string;
	},
): NodeApiError {
	const message = redactText(parts.message, parts.secret);
	const description = parts.description ? redactText(parts.description, parts.secret) : undefined;
	const errorResponse: JsonObject = {
		message,
		...(description ? { description } : {}),
		...(parts.httpCode ? { httpCode: parts.httpCode } : {}),
		...((redactValue(parts.details, parts.secret) as JsonObject | undefined) ?? {}),
	};
	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: parts.httpCode,
		itemIndex: parts.itemIndex,
	});
	// NodeApiError rewrites messages that mention network codes or status classes; ours are already clear.
	error.message = message;
	error.description = description ?? null;
	if (parts.httpCode) error.httpCode = parts.httpCode;
	return error;
}

/** Passes n8n errors on as they are and wraps anything else, so a catch block never rethrows a raw value. */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const name = (error as { name?: unknown } | undefined)?.name;
	if (name === 'NodeApiError' || name === 'NodeOperationError') {
		return error as NodeApiError | NodeOperationError;
	}
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** Adds a line to an error's description (what the node found out after the failure). */
export function withNote(node: INode, error: unknown, note: string): NodeApiError | NodeOperationError {
	const nodeError = asNodeError(node, error);
	nodeError.description = [nodeError.description, note].filter(Boolean).join('\n');
	return nodeError;
}
