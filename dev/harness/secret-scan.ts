/**
 * Finds where a secret surfaces in what a user or an operator could see: node outputs, errors
 * (message, description, stack, context), static data and log lines.
 */
import { inspect } from 'node:util';

import { serialiseMetadata } from './log-capture';

function render(value: unknown): string {
	if (typeof value === 'string') return value;
	if (value instanceof Error) return `${inspect(value, { depth: 8 })} ${serialiseMetadata(value)}`;
	return `${serialiseMetadata(value)} ${inspect(value, { depth: 8, maxStringLength: Infinity, maxArrayLength: Infinity })}`;
}

/**
 * Names of the `places` whose rendering contains `secret` (also URL-encoded). Empty when it leaks
 * nowhere. Example: `expect(findSecret(apiKey, { run: result.run, error: result.error, logs: result.logs })).toEqual([])`.
 */
export function findSecret(secret: string, places: Record<string, unknown>): string[] {
	if (secret.length < 4) throw new Error('A secret shorter than 4 characters cannot be scanned for reliably');
	const spellings = [...new Set([secret, encodeURIComponent(secret)])];
	return Object.entries(places)
		.filter(([, value]) => {
			const text = Array.isArray(value) ? value.map(render).join('\n') : render(value);
			return spellings.some((spelling) => text.includes(spelling));
		})
		.map(([name]) => name);
}
