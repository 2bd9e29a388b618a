/** The error for a call the rate limit holds past Max Rate Limit Wait: what holds the key, and for how long. */
import type { INode, NodeApiError } from 'n8n-workflow';

import { buildApiError, callAndItem, type CallFailure } from './nodeError';
import { rateLimitedOutcome, withOutcome } from './outcome';
import { quotableMessage } from './quotable';
import { redactValue } from './secrets';

interface RateLimitFailure extends CallFailure {
	waitedMs: number;
	maxWaitMs: number;
	refusals: number;
	/** The wait the call would need, when known: the hold or the pace alone would pass the maximum. */
	askedWaitMs?: number;
	/** What holds the key: a 429's Retry-After or reset, or a doubled wait; none when the pace alone holds the call. */
	heldBy?: 'Retry-After' | 'X-RateLimit-Reset' | 'doubling';
}

/** Milliseconds as seconds with one decimal. */
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Why the call was not sent (again): what holds the key, and how long that is past the time left. */
function whyNotSent(failure: RateLimitFailure): string {
	const left = `${seconds(Math.max(0, failure.maxWaitMs - failure.waitedMs))} s left of the maximum`;
	const wait = seconds(failure.askedWaitMs ?? 0);
	if (failure.heldBy === undefined) {
		const when = failure.askedWaitMs ? `in ${wait} s at the earliest` : 'only after the calls ahead of it';
		return `The rate limit of this key lets this call go ${when}, more than the ${left}, so it was not sent.`;
	}
	const more = failure.refusals === 0 ? ' more' : '';
	const asked =
		failure.heldBy === 'doubling'
			? `gave no wait (no Retry-After or X-RateLimit-Reset), so the key waits ${wait} s${more} (a window, doubled with each such refusal)`
			: `asked to wait ${wait} s${more} (${failure.heldBy})`;
	if (failure.refusals === 0) {
		return `An earlier call with this key was refused with 429 (too many requests) and the service ${asked}, more than the ${left}, so this call was not sent.`;
	}
	const times = failure.refusals === 1 ? '1 time' : `${failure.refusals} times`;
	return `The service refused the request ${times} with 429 (too many requests) and ${asked}, more than the ${left}, so it was not sent again.`;
}

/** The error for a call the rate limit holds past the allowed total wait. */
export function errorFromRateLimit(node: INode, failure: RateLimitFailure, secret: string | undefined, isWrite: boolean): NodeApiError {
	const fromService = quotableMessage(redactValue(failure.body, secret), failure.contentType);
	const description = [
		`${whyNotSent(failure)} Raise "Max Rate Limit Wait" in the node options, or spread the calls over more time.`,
		fromService ? `Service message: ${fromService}` : '',
		callAndItem(failure),
	];
	const error = buildApiError(node, {
		message: `Rate limit still reached after waiting ${seconds(failure.waitedMs)} s in total (maximum ${seconds(failure.maxWaitMs)} s)`,
		description: description.filter(Boolean).join('\n'),
		httpCode: '429',
		itemIndex: failure.itemIndex,
		secret,
	});
	return isWrite ? withOutcome(error, rateLimitedOutcome(failure.refusals)) : error;
}
