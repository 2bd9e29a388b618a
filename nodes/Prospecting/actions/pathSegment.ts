import type { INode } from 'n8n-workflow';

import { MAX_ID_LENGTH } from '../shared/ids';
import { inputError } from './inputError';

/**
 * Encodes one path segment taken from user input. Values that are empty, blank, or that a
 * server would read as a directory step ('.', '..') are refused, so no input can change the
 * path of a call.
 */
export function pathSegment(node: INode, itemIndex: number, field: string, value: unknown): string {
	if (
		value === undefined ||
		value === null ||
		(typeof value === 'object' && !Array.isArray(value))
	) {
		throw inputError(node, itemIndex, field, 'a value is required');
	}
	if (Array.isArray(value)) {
		throw inputError(node, itemIndex, field, 'expected one ID, got a list');
	}
	if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
		throw inputError(node, itemIndex, field, `expected an ID as text, got ${typeof value}`);
	}
	const text = String(value).trim();
	if (text === '') throw inputError(node, itemIndex, field, 'a value is required');
	if (text.length > MAX_ID_LENGTH) {
		throw inputError(
			node,
			itemIndex,
			field,
			`longer than ${MAX_ID_LENGTH} characters; expected an ID`,
		);
	}
	if (text === '.' || text === '..') {
		throw inputError(node, itemIndex, field, `"${text}" is not a valid ID`);
	}
	return encodeURIComponent(text);
}
