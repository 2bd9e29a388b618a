import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { budgetKey, buildQuery, checkedAccount, type MultiValueFormat, type ProspectingContext } from '../helpers/account';
import { errorFromNetwork, errorFromRateLimit, errorFromStatus, errorFromWriteAnswer, isNotSentCode, isResponseLostCode } from '../helpers/errors';
import { headerValue } from '../helpers/headers';
import { networkCode } from '../helpers/networkCode';
import { cancelSignal, pause } from './pause';
import { callKind, getBudget, rateSettings, RateWaitTooLong, type Reservation } from './rateBudget';
import { readRateAnswer } from './rateRules';
import { noteServiceDate } from './serviceClock';
import { redactText, redactValue } from '../helpers/secrets';
import { writeAnswerProblem, type WriteAnswerExpectation } from '../helpers/writeAnswer';

export interface ProspectingRequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/** The input item the call is made for, so errors can name it. */
	itemIndex?: number;
	/** In a workflow: how long the call may wait after a refusal, in seconds. Default 300. */
	maxRateLimitWaitSeconds?: number;
	/** As a tool: the tool call's one deadline (ms since the epoch) for every wait of every call it makes. */
	deadlineAt?: number;
	/** Names the record of the path for a 404, e.g. 'Routine "rt_1"'. */
	recordLabel?: string;
	multiValueFormat?: MultiValueFormat;
	/** Per-call timeout in ms. Default 60 000. */
	timeoutMs?: number;
	/** A create's 2xx answer must be a JSON object with an id, else its outcome is unknown. */
	expect?: WriteAnswerExpectation;
}

export const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 300;
const DEFAULT_TIMEOUT_MS = 60_000;
/** Reads are safe to repeat: this many retries after 5xx, dropped connections or non-JSON answers. */
const MAX_READ_RETRIES = 4;
const READ_RETRY_BASE_MS = 300;

/**
 * One call to the service under /api/v1, authenticated by the prospectingApi credential. `endpoint` starts with
 * '/', e.g. '/leads'. Returns the parsed JSON body, free of the key. Waits as the rate rules say, retries reads
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
	const { credentials, baseUrl, secret, authentication } = await checkedAccount.call(this, options.itemIndex);
	const kind = callKind(method);
	const settings = rateSettings({ ...credentials }, kind);
	const budget = getBudget(baseUrl, secret, kind, settings);
	const format = options.multiValueFormat ?? 'repeat'; // `routineIds=a&routineIds=b`
	const { deadlineAt } = options;
	const maxWaitMs = Math.max(0, options.maxRateLimitWaitSeconds ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS) * 1000;
	// A tool call's waits count from its start, whichever of its calls this is.
	const startedAt = deadlineAt !== undefined ? deadlineAt - maxWaitMs : Date.now();
	const [where, signal] = [{ method, endpoint, itemIndex: options.itemIndex }, cancelSignal(this)];
	const request: IHttpRequestOptions = {
		method,
		baseURL: `${baseUrl}/api/v1`,
		url: endpoint,
		qs: buildQuery(options.qs, format),
		...{ json: true, returnFullResponse: true, ignoreHttpStatusErrors: true },
		timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		arrayFormat: format === 'brackets' ? 'brackets' : 'repeat',
		// A redirect would take the key (in the query) to another address, and turn a POST into a GET of some page.
		disableFollowRedirect: true,
	};
	if (options.body !== undefined) request.body = options.body;
	let [attempts, readFailures, refusals] = [0, 0, 0];
	/** [7] Set by the first refusal in a workflow (a tool call's is set from the start): no wait may end later. */
	let limitAt = deadlineAt;
	const rateLimitError = (refusal: { status?: number; body?: unknown; askedWaitMs?: number; paced?: boolean }) =>
		errorFromRateLimit(node, { ...where, ...refusal, waitedMs: Date.now() - startedAt, maxWaitMs, refusals }, secret, kind === 'write');
	/** Reads are retried with a growing wait, never past the deadline: the failure is then the answer. */
	const retryRead = async (reason: string): Promise<boolean> => {
		const wait = READ_RETRY_BASE_MS * 2 ** readFailures;
		if (kind !== 'read' || readFailures >= MAX_READ_RETRIES || Date.now() + wait > (limitAt ?? Infinity)) return false;
		readFailures += 1;
		this.logger?.debug(`Prospecting: ${method} ${endpoint} failed (${reason}); retry ${readFailures} in ${wait} ms`);
		await pause(wait, signal);
		return true;
	};

	for (;;) {
		attempts += 1;
		// [7] Calls held by a refusal longer than this call may wait fail now and send nothing.
		const heldMs = budget.heldForMs();
		if (heldMs > 0 && Date.now() + heldMs > (limitAt ?? startedAt + maxWaitMs)) throw rateLimitError({ askedWaitMs: heldMs, paced: budget.figures().holdMs === 0 });
		const askedAt = Date.now();
		const reservation: Reservation | RateWaitTooLong = await budget
			.acquire(settings, { signal, deadlineAt: limitAt, first: refusals > 0 })
			.catch((error: unknown) => (error instanceof RateWaitTooLong ? error : Promise.reject(error)));
		if (reservation instanceof RateWaitTooLong) throw rateLimitError({ askedWaitMs: reservation.neededMs, paced: refusals === 0 });
		if (reservation.at > askedAt) this.logger?.debug(`Prospecting: ${kind} budget spent; waited ${reservation.at - askedAt} ms`);

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, 'prospectingApi', request, authentication)) as IN8nHttpFullResponse;
		} catch (error) {
			budget.settle(reservation, undefined, settings);
			const code = networkCode(error);
			const retryable = code !== 'ERR_CANCELED' && (isResponseLostCode(code) || isNotSentCode(code) || code === undefined);
			if (retryable && (await retryRead(redactText(code ?? 'network error', secret)))) continue;
			throw errorFromNetwork(node, { ...where, code, attempts }, secret, kind === 'write');
		}

		const status = response.statusCode;
		const now = Date.now();
		const headers = response.headers as Record<string, unknown>;
		noteServiceDate(budgetKey(baseUrl, secret), headers, now);
		const answer = readRateAnswer(headers, status, now, budget.unitFor(settings), settings.windowMs);
		budget.settle(reservation, answer, settings, now);

		if (status === 429) {
			refusals += 1;
			limitAt ??= now + maxWaitMs;
			// Retrying before the service's wait is over only earns another 429: when it does not fit, fail now.
			if (now + budget.heldForMs(now) > limitAt) throw rateLimitError({ status, body: response.body, askedWaitMs: budget.heldForMs(now) });
			this.logger?.debug(`Prospecting: ${method} ${endpoint} refused with 429 (${refusals}); waiting ${budget.heldForMs(now)} ms`);
			continue;
		}

		if (status >= 500 && (await retryRead(`status ${status}`))) continue;

		const body = response.body;
		const contentType = headerValue(headers, 'content-type');
		if (status < 200 || status >= 300) {
			const location = headerValue(headers, 'location');
			throw errorFromStatus(node, { ...where, status, body, contentType, location, attempts, recordLabel: options.recordLabel }, secret, kind === 'write');
		}
		if (kind === 'write') {
			const problem = writeAnswerProblem(body, options.expect);
			if (problem) throw errorFromWriteAnswer(node, { ...where, status, body, contentType, problem }, secret);
		}
		if (kind === 'read' && (body === null || typeof body !== 'object')) {
			if (await retryRead('answer was not JSON')) continue;
			throw errorFromNetwork(node, { ...where, code: 'NOT_JSON', attempts, body, contentType }, secret, false);
		}
		return redactValue(body, secret);
	}
}
