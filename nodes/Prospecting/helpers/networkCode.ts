/**
 * The network error code of a call that got no answer (ECONNREFUSED, ETIMEDOUT, ...): read from the HTTP client's
 * error, told in words, and what it proves of the request.
 * - `unreachable`: the request never reached the service (a refused connection, an unknown host).
 * - `interrupted`: the connection dropped or timed out after the request may have reached the service.
 * Any other code (a certificate refused, a protocol error) proves neither.
 */
type Proof = 'unreachable' | 'interrupted';

const CODES: Record<string, { proves?: Proof; words?: string }> = {
	ECONNREFUSED: { proves: 'unreachable', words: 'the service refused the connection' },
	ENOTFOUND: { proves: 'unreachable', words: 'the host name of the base URL could not be resolved' },
	EAI_AGAIN: { proves: 'unreachable', words: 'the host name of the base URL could not be resolved' },
	EHOSTUNREACH: { proves: 'unreachable', words: 'the host of the base URL is unreachable' },
	ENETUNREACH: { proves: 'unreachable', words: 'the network is unreachable' },
	ECONNRESET: { proves: 'interrupted', words: 'the connection was reset' },
	ETIMEDOUT: { proves: 'interrupted', words: 'the request timed out' },
	ECONNABORTED: { proves: 'interrupted', words: 'the request timed out' },
	ESOCKETTIMEDOUT: { proves: 'interrupted', words: 'the request timed out' },
	ERR_SOCKET_CONNECTION_TIMEOUT: { proves: 'interrupted' },
	EPIPE: { proves: 'interrupted', words: 'the connection was closed while sending' },
	SOCKET_HANG_UP: { proves: 'interrupted', words: 'the connection was closed before an answer came' },
	ERR_CANCELED: { words: 'the request was cancelled' },
};

const known = (code: string | undefined) =>
	code !== undefined && Object.prototype.hasOwnProperty.call(CODES, code) ? CODES[code] : undefined;

/** Whether the code proves the request never reached the service. */
export const isUnreachableCode = (code: string | undefined): boolean => known(code)?.proves === 'unreachable';

/**
 * Whether a read that failed so is worth another try: the service was unreachable or the connection interrupted, or
 * no code tells what happened. A cancelled call, or a code that proves neither, is not.
 */
export const isRetryableCode = (code: string | undefined): boolean => code === undefined || known(code)?.proves !== undefined;

/** Words for a network error code, without the raw code that n8n would otherwise rewrite. */
export function describeCode(code: string | undefined): string {
	if (!code) return 'the connection failed';
	return known(code)?.words ?? `the connection failed (${code.toLowerCase()})`;
}

/** The network error code of a failed call, read from n8n's wrapper or the HTTP client's error. */
export function networkCode(error: unknown): string | undefined {
	const candidates: unknown[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		candidates.push(current);
		current = (current as { cause?: unknown }).cause;
	}
	for (const candidate of candidates) {
		// n8n's wrapper keeps the code in httpCode when it cannot keep the original error as cause.
		for (const field of ['code', 'httpCode'] as const) {
			const code = (candidate as Record<string, unknown>)[field];
			if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		}
	}
	for (const candidate of candidates) {
		const texts = [
			(candidate as { message?: unknown }).message,
			...(((candidate as { messages?: unknown }).messages as unknown[] | undefined) ?? []),
		].map((text) => String(text ?? ''));
		for (const text of texts) {
			const match = /\b(E[A-Z]{4,}(?:_[A-Z]+)*)\b/.exec(text);
			if (match) return match[1];
		}
		const message = texts.join(' ').toLowerCase();
		if (message.includes('socket hang up')) return 'SOCKET_HANG_UP';
		if (message.includes('timeout')) return 'ETIMEDOUT';
		if (message.includes('aborted') || message.includes('canceled')) return 'ERR_CANCELED';
	}
	return undefined;
}
