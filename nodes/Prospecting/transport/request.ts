import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { buildQuery, checkedAccount, type MultiValueFormat, type ProspectingContext } from './account';
import {
	errorFromNetwork,
	errorFromRateLimit,
	errorFromStatus,
	errorFromWriteAnswer,
	isNotSentCode,
	isResponseLostCode,
} from './errors';
import { headerValue } from './headers';
import { networkCode } from './networkCode';
import { RateWaitTooLong } from './callQueue';
import { cancelSignal, pause } from './pause';
import { callKind, getBudget, rateSettings } from './rateBudgets';
import { readRateAnswer } from './rateHeaders';
import { decideRefusal } from './refusal';
import { redactText, redactValue } from './secrets';
import { serviceClockOffsetMs } from './serviceDate';
import { writeAnswerProblem, type WriteAnswerExpectation } from './writeAnswer';


export interface ProspectingRequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/** The input item the call is made for, so errors can name it. */
	itemIndex?: number;
	/** How long the call may wait on the rate limit, in seconds. Default 300. */
	maxRateLimitWaitSeconds?: number;
	/**
	 * What that maximum bounds: every wait of the call (queue, pacing, refusals), as an agent waiting on an answer
	 * needs; otherwise only the waits after a refusal, so a spike's tail is paced rather than failed.
	 */
	rateLimitWaitCoversAll?: boolean;
	/** Names the record of the path for a 404, e.g. 'Routine "rt_1"'. */
	recordLabel?: string;
	/** Default 'repeat': `routineIds=a&routineIds=b`. */
	multiValueFormat?: MultiValueFormat;
	/** Per-call timeout in ms. Default 60 000. */
	timeoutMs?: number;
	/** A create's 2xx answer must be a JSON object with an id, else its outcome is unknown. */
	expect?: WriteAnswerExpectation;
	/** Called with (Date header) − (local time of arrival), in ms, for every answer with a Date header. */
	onServiceClock?: (offsetMs: number) => void;
}

export const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 300;
const DEFAULT_TIMEOUT_MS = 60_000;
/** Reads are safe to repeat: this many retries after 5xx, dropped connections or non-JSON answers. */
const MAX_READ_RETRIES = 4;
const READ_RETRY_BASE_MS = 300;
/** After a call's own 429 wait, how far past the maximum the budget's hold may still be (timer jitter). */
const OWN_REFUSAL_GRACE_MS = 1000;

function isJsonBody(body: unknown): boolean {
	return body !== null && typeof body === 'object';
}

/**
 * One call to the service under /api/v1, authenticated by the prospectingApi credential. `endpoint` starts with
 * '/', e.g. '/leads'. Returns the parsed JSON body, free of the key. Waits as the rate policy says, retries reads
 * that fail (5xx, dropped connection, non-JSON answer) a bounded number of times, and never follows a redirect.
 * A write is sent once: every error it raises carries its outcome (outcome.ts), and one whose outcome is unknown
 * (a 5xx, a lost answer, a 2xx that is not its answer) is what `isResponseLostError` recognises.
 */
export async function prospectingApiRequest(
	this: ProspectingContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ProspectingRequestOptions = {},
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes; callers check what they read.
): Promise<any> {
	const node = this.getNode();
	const { credentials, baseUrl, secret } = await checkedAccount.call(this, options.itemIndex);
	const kind = callKind(method);
	const budget = getBudget(baseUrl, secret, kind, rateSettings({ ...credentials }, kind));
	const format = options.multiValueFormat ?? 'repeat';
	const maxWaitMs = Math.max(0, options.maxRateLimitWaitSeconds ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS) * 1000;
	const startedAt = Date.now();
	const deadlineAt = options.rateLimitWaitCoversAll ? startedAt + maxWaitMs : undefined;
	const where = { method, endpoint, itemIndex: options.itemIndex };
	const signal = cancelSignal(this);

	const request: IHttpRequestOptions = {
		method,
		baseURL: `${baseUrl}/api/v1`,
		url: endpoint,
		qs: buildQuery(options.qs, format),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		arrayFormat: format === 'brackets' ? 'brackets' : 'repeat',
		// A redirect would take the key (in the query) to another address, and turn a POST into a GET of some page.
		disableFollowRedirect: true,
	};
	if (options.body !== undefined) request.body = options.body;

	let attempts = 0;
	let readFailures = 0;
	let refusals = 0;
	/** Time spent on the rate limit that counts against the maximum. */
	let waitedMs = 0;
	let lastWaitMs = 0;
	const rateLimitError = (refusal: { status?: number; body?: unknown; askedWaitMs?: number; paced?: boolean }) =>
		errorFromRateLimit(node, { ...where, ...refusal, waitedMs, maxWaitMs, refusals }, secret, kind === 'write');

	const retryRead = async (reason: string): Promise<boolean> => {
		if (kind !== 'read' || readFailures >= MAX_READ_RETRIES) return false;
		readFailures += 1;
		const wait = READ_RETRY_BASE_MS * 2 ** (readFailures - 1);
		this.logger?.debug(`Prospecting: ${method} ${endpoint} failed (${reason}); retry ${readFailures} in ${wait} ms`);
		await pause(wait, signal);
		return true;
	};

	for (;;) {
		attempts += 1;
		if (deadlineAt !== undefined) waitedMs = Date.now() - startedAt;
		// Calls held by a refusal longer than this call may still wait fail now and send nothing. After its own wait
		// a call gets a second's grace for timer jitter, so a Retry-After that just fits the maximum is still sat out.
		const heldMs = budget.heldForMs();
		if (heldMs > 0 && heldMs > maxWaitMs - waitedMs + (refusals > 0 ? OWN_REFUSAL_GRACE_MS : 0)) {
			throw rateLimitError({ askedWaitMs: heldMs });
		}
		// After a refusal, the wait for the window it closed counts against the maximum as well.
		const callDeadline = deadlineAt ?? (refusals > 0 ? Date.now() + maxWaitMs - waitedMs + OWN_REFUSAL_GRACE_MS : undefined);
		const reservation = await budget
			.acquire({
				signal,
				deadlineAt: callDeadline,
				onWait: (ms) => this.logger?.debug(`Prospecting: ${kind} budget spent; waiting ${Math.round(ms)} ms`),
			})
			.catch((error: unknown) => (error instanceof RateWaitTooLong ? error : Promise.reject(error)));
		if (reservation instanceof RateWaitTooLong) {
			if (deadlineAt !== undefined) waitedMs = Date.now() - startedAt;
			throw rateLimitError({ askedWaitMs: reservation.neededMs, paced: refusals === 0 });
		}
		// After a refusal, waiting for the window is part of waiting out the rate limit.
		if (deadlineAt !== undefined) waitedMs = Date.now() - startedAt;
		else if (refusals > 0) waitedMs += reservation.waitedMs;

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'prospectingApi',
				request,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			budget.cancel(reservation);
			const code = networkCode(error);
			if (code === 'ERR_CANCELED') {
				throw errorFromNetwork(node, { ...where, code, attempts }, secret, kind === 'write');
			}
			const retryable = isResponseLostCode(code) || isNotSentCode(code) || code === undefined;
			if (retryable && (await retryRead(redactText(code ?? 'network error', secret)))) continue;
			throw errorFromNetwork(node, { ...where, code, attempts }, secret, kind === 'write');
		}

		const status = response.statusCode;
		const headers = response.headers as Record<string, unknown>;
		const offsetMs = serviceClockOffsetMs(headers, Date.now());
		if (offsetMs !== undefined) options.onServiceClock?.(offsetMs);
		const answer = readRateAnswer(headers, status);
		budget.settle(reservation, answer);

		if (status === 429) {
			refusals += 1;
			if (deadlineAt !== undefined) waitedMs = Date.now() - startedAt;
			const leftMs = maxWaitMs - waitedMs;
			const refusal = decideRefusal(answer, { refusals, lastWaitMs, leftMs }, budget.settings.windowMs);
			// Retrying before the service's wait is over only earns another 429: when it does not fit, fail now.
			if (!refusal.fits) throw rateLimitError({ status, body: response.body, askedWaitMs: refusal.waitMs });
			this.logger?.debug(`Prospecting: ${method} ${endpoint} refused with 429 (${refusals}); waiting ${refusal.waitMs} ms`);
			await pause(refusal.waitMs, signal);
			waitedMs += refusal.waitMs;
			lastWaitMs = refusal.waitMs;
			continue;
		}

		if (status >= 500 && (await retryRead(`status ${status}`))) continue;

		const body = response.body;
		const contentType = headerValue(headers, 'content-type');
		if (status < 200 || status >= 300) {
			const location = headerValue(headers, 'location');
			const failure = { ...where, status, body, contentType, location, attempts, recordLabel: options.recordLabel };
			throw errorFromStatus(node, failure, secret);
		}

		if (kind === 'write') {
			const problem = writeAnswerProblem(body, options.expect);
			if (problem) throw errorFromWriteAnswer(node, { ...where, status, body, contentType, problem }, secret);
		}
		if (kind === 'read' && !isJsonBody(body)) {
			if (await retryRead('answer was not JSON')) continue;
			throw errorFromNetwork(node, { ...where, code: 'NOT_JSON', attempts, body, contentType }, secret);
		}
		return redactValue(body, secret);
	}
}
