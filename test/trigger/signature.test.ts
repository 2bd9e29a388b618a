/**
 * The delivery signature check on its own: HMAC-SHA256 over the raw bytes, hex, constant-time,
 * header detection, and every forged shape listed for the trigger.
 */
import { createHmac, randomBytes } from 'node:crypto';

import {
	digestsMatch,
	signatureCandidates,
	signBody,
	verifyDeliverySignature,
} from '../../nodes/Prospecting/trigger/signature';

const secret = 'whsec_' + randomBytes(16).toString('hex');
const rawBody = Buffer.from(
	'{"id":"evt_1","test":false,"event":"prospection.won","data":{"prospection":{"id":"p1","status":"WON"}},"retries":0,"manualRetries":0,"createdAt":"2026-01-01T00:00:00.000Z"}',
);
const hex = createHmac('sha256', secret).update(rawBody).digest('hex');

function check(headers: Record<string, string | string[] | undefined>, headerName?: string, body: Buffer | string = rawBody) {
	return verifyDeliverySignature({ rawBody: body, secret, headers, headerName });
}

describe('signBody', () => {
	it('is the hex HMAC-SHA256 of the raw bytes with the secret', () => {
		expect(signBody(rawBody, secret)).toBe(hex);
		expect(signBody(rawBody, secret)).toMatch(/^[0-9a-f]{64}$/);
	});
});

describe('verifyDeliverySignature: accepted shapes', () => {
	it.each([
		['bare lowercase hex in x-signature', { 'x-signature': hex }],
		['uppercase hex', { 'x-signature': hex.toUpperCase() }],
		['sha256= prefix', { 'x-signature': `sha256=${hex}` }],
		['SHA256= prefix in upper case', { 'x-signature': `SHA256=${hex.toUpperCase()}` }],
		['an unusual header name', { 'x-prospecting-signature-256': hex }],
		['among other headers', { 'content-type': 'application/json', 'x-request-id': 'abc', 'x-hub-signature-256': `sha256=${hex}` }],
		['a repeated header', { 'x-signature': ['deadbeef', hex] }],
		['comma-joined values', { 'x-signature': `sha256=${'0'.repeat(64)}, sha256=${hex}` }],
	])('%s', (_label, headers) => {
		const result = check(headers);
		expect(result.verified).toBe(true);
	});

	it('reports which header carried the signature', () => {
		expect(check({ 'content-type': 'application/json', 'x-signature': hex })).toEqual({
			verified: true,
			header: 'x-signature',
		});
	});

	it('with a configured header, reads that header in any case of its name', () => {
		expect(check({ 'x-signature': hex }, 'X-Signature').verified).toBe(true);
		expect(check({ 'x-signature': hex }, '  x-signature ').verified).toBe(true);
	});
});

describe('verifyDeliverySignature: forged or broken deliveries are refused', () => {
	const sha1 = createHmac('sha1', secret).update(rawBody).digest('hex');
	const otherSecret = createHmac('sha256', 'another-secret').update(rawBody).digest('hex');

	it.each([
		['no signature header at all', { 'content-type': 'application/json' }, 'no-signature'],
		['empty signature', { 'x-signature': '' }, 'no-signature'],
		['wrong secret', { 'x-signature': otherSecret }, 'mismatch'],
		['truncated hex', { 'x-signature': hex.slice(0, 63) }, 'no-signature'],
		['hex truncated to half', { 'x-signature': hex.slice(0, 32) }, 'no-signature'],
		['extended hex', { 'x-signature': hex + '0' }, 'no-signature'],
		['doubled hex', { 'x-signature': hex + hex }, 'no-signature'],
		['SHA-1 signature (old algorithm)', { 'x-signature': sha1 }, 'no-signature'],
		['SHA-1 signature with sha1= prefix', { 'x-signature': `sha1=${sha1}` }, 'no-signature'],
		['sha1= prefix on the right SHA-256 digest', { 'x-signature': `sha1=${hex}` }, 'no-signature'],
		['base64 of the right digest', { 'x-signature': Buffer.from(hex, 'hex').toString('base64') }, 'no-signature'],
		['one hex digit changed', { 'x-signature': (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1) }, 'mismatch'],
		['non-hex character', { 'x-signature': 'z' + hex.slice(1) }, 'no-signature'],
		['the secret itself', { 'x-signature': secret }, 'no-signature'],
		['an oversized header', { 'x-signature': `sha256=${hex},`.repeat(10_000) }, 'no-signature'],
	])('%s', (_label, headers, reason) => {
		expect(check(headers)).toEqual({ verified: false, reason });
	});

	it('a body changed by one byte', () => {
		const changed = Buffer.from(rawBody);
		changed[10] = changed[10] ^ 1;
		expect(check({ 'x-signature': hex }, undefined, changed).verified).toBe(false);
	});

	it('the same JSON re-serialised with other whitespace or key order', () => {
		const parsed = JSON.parse(rawBody.toString('utf8'));
		const spaced = Buffer.from(JSON.stringify(parsed, null, 2));
		const { id, ...rest } = parsed;
		const reordered = Buffer.from(JSON.stringify({ ...rest, id }));
		expect(check({ 'x-signature': hex }, undefined, spaced).verified).toBe(false);
		expect(check({ 'x-signature': hex }, undefined, reordered).verified).toBe(false);
	});

	it('a matching signature in another header when a header is configured', () => {
		expect(check({ 'x-other': hex, 'x-signature': 'f'.repeat(64) }, 'x-signature')).toEqual({
			verified: false,
			reason: 'mismatch',
		});
		expect(check({ 'x-other': hex }, 'x-signature')).toEqual({ verified: false, reason: 'no-signature' });
	});

	it('no kept secret, even with a signature computed over an empty secret', () => {
		const emptySecretHex = createHmac('sha256', '').update(rawBody).digest('hex');
		expect(
			verifyDeliverySignature({ rawBody, secret: '', headers: { 'x-signature': emptySecretHex } }),
		).toEqual({ verified: false, reason: 'no-secret' });
		expect(
			verifyDeliverySignature({ rawBody, secret: undefined, headers: { 'x-signature': hex } }),
		).toEqual({ verified: false, reason: 'no-secret' });
	});

	it('no raw body', () => {
		expect(
			verifyDeliverySignature({ rawBody: undefined, secret, headers: { 'x-signature': hex } }),
		).toEqual({ verified: false, reason: 'no-body' });
	});

	it('an oversized body is verified without a crash', () => {
		const big = randomBytes(20 * 1024 * 1024);
		const bigHex = createHmac('sha256', secret).update(big).digest('hex');
		expect(check({ 'x-signature': bigHex }, undefined, big).verified).toBe(true);
		expect(check({ 'x-signature': hex }, undefined, big).verified).toBe(false);
	});
});

describe('signatureCandidates and digestsMatch', () => {
	it('keeps only 64-hex digests, lowercased, prefix removed', () => {
		expect(signatureCandidates(`SHA256=${hex.toUpperCase()}`)).toEqual([hex]);
		expect(signatureCandidates(['x', hex, 'sha1=' + hex])).toEqual([hex]);
		expect(signatureCandidates(undefined)).toEqual([]);
	});

	it('never matches digests of different lengths or empty ones', () => {
		expect(digestsMatch(hex, hex)).toBe(true);
		expect(digestsMatch(hex, hex.slice(0, 62))).toBe(false);
		expect(digestsMatch('', '')).toBe(false);
	});
});

describe('random forgeries', () => {
	it('10,000 random signatures, bodies and headers: none accepted', () => {
		let accepted = 0;
		const prefixes = ['', 'sha256=', 'SHA256=', 'sha1=', 'v1=', ' '];
		const headerNames = ['x-signature', 'x-hub-signature-256', 'signature', 'x-webhook-signature'];
		for (let i = 0; i < 10_000; i++) {
			const body = i % 2 === 0 ? rawBody : randomBytes(1 + (i % 300));
			const length = [63, 64, 64, 64, 65, 40, 128][i % 7];
			const digest = randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
			const value = prefixes[i % prefixes.length] + (i % 3 === 0 ? digest.toUpperCase() : digest);
			const headers = { [headerNames[i % headerNames.length]]: value };
			if (check(headers, i % 5 === 0 ? 'x-signature' : undefined, body).verified) accepted++;
		}
		expect(accepted).toBe(0);
	});
});
