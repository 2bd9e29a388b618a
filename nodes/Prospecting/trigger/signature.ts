import { createHmac, timingSafeEqual } from 'node:crypto';

/** A SHA-256 digest written as hex: 64 characters. SHA-1 digests (40) never have this length. */
const SHA256_HEX_LENGTH = 64;

/** Values longer than this cannot hold a signature; they are skipped before any parsing. */
const MAX_HEADER_VALUE_LENGTH = 1024;

/** At most this many comma-separated parts of one header value are considered. */
const MAX_CANDIDATES_PER_VALUE = 8;

const SHA256_HEX = /^[0-9a-f]{64}$/i;
const SHA256_PREFIX = /^sha256=/i;

export type SignatureFailure = 'no-secret' | 'no-body' | 'no-signature' | 'mismatch';

export type SignatureCheck =
	| { verified: true; header: string }
	| { verified: false; reason: SignatureFailure };

export type RequestHeaders = Record<string, string | string[] | undefined>;

/** Hex HMAC-SHA256 of the raw body with the webhook's secret, as the service signs deliveries. */
export function signBody(rawBody: Buffer | string, secret: string): string {
	return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * The SHA-256 hex digests one header value may carry: bare hex or `sha256=`-prefixed, in any case,
 * possibly several comma-separated (a repeated header). Anything else is not a candidate.
 */
export function signatureCandidates(value: string | string[] | undefined): string[] {
	if (value === undefined) return [];
	const values = Array.isArray(value) ? value : [value];
	const candidates: string[] = [];
	for (const single of values) {
		if (typeof single !== 'string' || single.length > MAX_HEADER_VALUE_LENGTH) continue;
		const parts = single.split(',').slice(0, MAX_CANDIDATES_PER_VALUE);
		for (const part of parts) {
			const digest = part.trim().replace(SHA256_PREFIX, '');
			if (digest.length === SHA256_HEX_LENGTH && SHA256_HEX.test(digest)) {
				candidates.push(digest.toLowerCase());
			}
		}
	}
	return candidates;
}

/** Constant-time comparison of two hex digests; different lengths never match. */
export function digestsMatch(expectedHex: string, receivedHex: string): boolean {
	const expected = Buffer.from(expectedHex, 'hex');
	const received = Buffer.from(receivedHex, 'hex');
	// Checked first: timingSafeEqual throws on buffers of different lengths.
	if (expected.length === 0 || expected.length !== received.length) return false;
	return timingSafeEqual(expected, received);
}

/**
 * Checks a delivery's signature against the secret kept for the webhook.
 * With `headerName` set only that header is read; without it any header may carry the signature,
 * since the spec does not name the header. Fails closed on every missing piece.
 */
export function verifyDeliverySignature(input: {
	rawBody: Buffer | string | undefined;
	secret: string | undefined;
	headers: RequestHeaders;
	headerName?: string;
}): SignatureCheck {
	const { rawBody, secret, headers } = input;
	if (typeof secret !== 'string' || secret === '') return { verified: false, reason: 'no-secret' };
	if (!Buffer.isBuffer(rawBody) && typeof rawBody !== 'string') {
		return { verified: false, reason: 'no-body' };
	}

	const wanted = (input.headerName ?? '').trim().toLowerCase();
	const headerNames = wanted !== '' ? [wanted] : Object.keys(headers);

	let sawCandidate = false;
	let expected: string | undefined;
	for (const name of headerNames) {
		const candidates = signatureCandidates(headers[name.toLowerCase()] ?? headers[name]);
		if (candidates.length === 0) continue;
		sawCandidate = true;
		expected ??= signBody(rawBody, secret);
		for (const candidate of candidates) {
			if (digestsMatch(expected, candidate)) return { verified: true, header: name.toLowerCase() };
		}
	}
	return { verified: false, reason: sawCandidate ? 'mismatch' : 'no-signature' };
}
