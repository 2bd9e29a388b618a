import { headerValue } from './headers';

/**
 * The service's clock as its answers show it. A Date header says when the service stamped the answer (whole
 * seconds); the difference to our clock when the answer arrives lets a caller compare the service's createdAt
 * times with its own.
 */

/** (Date header in ms) − (our time when the answer arrived), or undefined without a parseable Date header. */
export function serviceClockOffsetMs(headers: Record<string, unknown> | undefined, arrivedAt: number): number | undefined {
	const value = headerValue(headers, 'date');
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const stamped = Date.parse(value);
	return Number.isFinite(stamped) ? stamped - arrivedAt : undefined;
}
