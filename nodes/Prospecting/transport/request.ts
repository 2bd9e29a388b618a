import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { budgetKey, buildQuery, checkedAccount, type MultiValueFormat, type ProspectingContext } from '../helpers/account';
import { headerValue } from '../helpers/headers';
import { isRetryableCode, isUnreachableCode, networkCode } from '../helpers/networkCode';
import { errorFromNetwork } from '../helpers/networkError';
import { withOutcome } from '../helpers/outcome';
import { errorFromRateLimit } from '../helpers/rateLimitError';
import { errorFromStatus } from '../helpers/statusError';
import { errorFromNotJson, errorFromWriteAnswer } from '../helpers/unusableAnswerError';
import { Deadline } from './deadline';
import { cancelSignal, pause } from './pause';
import { callKind, getBudget, rateSettings, RateWaitTooLong } from './rateBudget';
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
/** [11] Reads are safe to repeat: this many retries after a 5xx, a dropped connection or an answer that is not JSON. */
export const MAX_READ_RETRIES = 4;
/** [11] A write is repeated only when it never reached the service (a refused connection may be a restart): once. */
export const MAX_UNSENT_WRITE_RETRIES = 1;
/** [11] The wait before a read's first retry, doubling for each next one. */
export const READ_RETRY_BASE_MS = 300;

/**
 * One call to the service under /api/v1 (`endpoint` as '/leads'), authenticated by the prospectingApi credential:
 * its parsed JSON body, free of the key. Waits as the rate rules say, retries a failed read a bounded number of times,
 * never follows a redirect, and sends a write once: each error carries its outcome (outcome.ts).
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
	const [settings, budget] = [rateSettings({ ...credentials }, kind), getBudget(secret, kind)];
	const format = options.multiValueFormat ?? 'repeat'; // `routineIds=a&routineIds=b`
	const deadline = new Deadline(Math.max(0, options.maxRateLimitWaitSeconds ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS) * 1000, options.deadlineAt);
	const [where, signal, isWrite] = [{ method, endpoint, itemIndex: options.itemIndex }, cancelSignal(this), kind === 'write'];
	const request: IHttpRequestOptions = {
		...{ method, baseURL: `${baseUrl}/api/v1`, url: endpoint, qs: buildQuery(options.qs, format), timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
		...{ json: true, returnFullResponse: true, ignoreHttpStatusErrors: true, arrayFormat: format === 'brackets' ? 'brackets' : 'repeat' },
		// A redirect would take the key (in the query) to another address, and turn a POST into a GET of some page.
		disableFollowRedirect: true,
	};
	if (options.body !== undefined) request.body = options.body;
	const place = budget.enter();
	let [attempts, failures, refusals] = [0, 0, 0];
	/** [11] The failure a call is retrying, its answer when no retry fits: never a rate limit; and the last 429's body. */
	let [failure, refusedBody]: [Error | undefined, unknown] = [undefined, undefined];
	/** [10] A write stopped while it waits (its turn, or a retry of one that never reached the service) was not sent. */
	const stoppedBeforeSending = (error: unknown) => (isWrite ? withOutcome(error, 'notSent') : error);
	/** [11] A read, or a write that never reached the service, is retried with a growing wait, never past the deadline. */
	const retry = async (error: Error, reason: string, unsent = false): Promise<boolean> => {
		const wait = READ_RETRY_BASE_MS * 2 ** failures;
		const most = isWrite ? (unsent ? MAX_UNSENT_WRITE_RETRIES : 0) : MAX_READ_RETRIES;
		if (failures >= most || Date.now() + wait > deadline.latest(false, Date.now())) return false;
		[failure, failures] = [error, failures + 1];
		this.logger?.debug(`Prospecting: ${method} ${endpoint} failed (${reason}); retry ${failures} in ${wait} ms`);
		await pause(wait, signal).catch((error: unknown) => {
			throw stoppedBeforeSending(error);
		});
		return true;
	};

	// [12] The call keeps its place until it ends, between a read's tries too: its budget is not dropped meanwhile.
	try {
		for (;;) {
			attempts += 1;
			const askedAt = Date.now();
			const reservation = await budget.acquire(settings, deadline, signal, place).catch((error: unknown) => {
				if (!(error instanceof RateWaitTooLong)) throw stoppedBeforeSending(error);
				const waited = { waitedMs: deadline.waitedMs(Date.now()), maxWaitMs: deadline.maxWaitMs, askedWaitMs: error.neededMs, heldBy: error.heldBy };
				throw failure ?? errorFromRateLimit(node, { ...where, ...waited, refusals, body: refusedBody }, secret, isWrite);
			});
			if (reservation.at > askedAt) this.logger?.debug(`Prospecting: ${kind} budget spent; waited ${reservation.at - askedAt} ms`);

			let response: IN8nHttpFullResponse;
			try {
				response = (await this.helpers.httpRequestWithAuthentication.call(this, 'prospectingApi', request, authentication)) as IN8nHttpFullResponse;
			} catch (error) {
				budget.settle(reservation, undefined, settings);
				const code = networkCode(error);
				const noAnswer = errorFromNetwork(node, { ...where, code, attempts }, secret, isWrite);
				if (isRetryableCode(code) && (await retry(noAnswer, redactText(code ?? 'network error', secret), isUnreachableCode(code)))) continue;
				throw noAnswer;
			}

			const [status, body, headers, now] = [response.statusCode, response.body, response.headers as Record<string, unknown>, Date.now()];
			noteServiceDate(budgetKey(secret), headers, now);
			budget.settle(reservation, readRateAnswer(headers, status, now, settings), settings, now);

			if (status === 429) {
				// Its next turn decides: after the hold, or at once a rate-limit error when the hold passes the deadline.
				[refusals, refusedBody, failure] = [refusals + 1, body, undefined];
				this.logger?.debug(`Prospecting: ${method} ${endpoint} refused with 429 (${refusals}); waiting ${budget.figures().hold.until - now} ms`);
				continue;
			}
			const contentType = headerValue(headers, 'content-type');
			const statusError = () => errorFromStatus(node, { ...where, status, body, contentType, location: headerValue(headers, 'location'), attempts, recordLabel: options.recordLabel }, secret, isWrite);
			if (status >= 500 && (await retry(statusError(), `status ${status}`))) continue;
			if (status < 200 || status >= 300) throw statusError();
			const problem = isWrite ? writeAnswerProblem(body, options.expect) : undefined;
			if (problem) throw errorFromWriteAnswer(node, { ...where, status, body, contentType, problem }, secret);
			if (!isWrite && (body === null || typeof body !== 'object')) {
				const notJson = errorFromNotJson(node, { ...where, attempts, body, contentType }, secret);
				if (await retry(notJson, 'answer was not JSON')) continue;
				throw notJson;
			}
			return redactValue(body, secret);
		}
	} finally {
		budget.end(place);
	}
}
