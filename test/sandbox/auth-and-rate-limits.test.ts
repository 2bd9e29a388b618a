/** Authentication by the apiKey query parameter and the fixed-window rate limits of the spec. */
import { DEMO_API_KEY, startSandbox, type RunningSandbox } from '../../sandbox';
import { call } from '../support/service';
import { useSandbox } from '../support/sandbox';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox authentication', () => {
	let sandbox: RunningSandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ apiKeys: [DEMO_API_KEY, 'b'.repeat(40)] });
	});
	afterAll(() => sandbox.stop());

	it('accepts the demo key by default, a fixed key of about 40 characters', async () => {
		expect(DEMO_API_KEY).toHaveLength(40);
		expect(sandbox.apiKey).toBe(DEMO_API_KEY);
		expect((await call(sandbox, 'GET', '/custom-fields', { query: 'limit=1&page=1' })).status).toBe(200);
		expect((await call(sandbox, 'GET', '/custom-fields', { apiKey: 'b'.repeat(40) })).status).toBe(200);
	});

	it('answers 401 with a Portuguese message for a missing or wrong key, on reads and writes', async () => {
		const missing = await call(sandbox, 'GET', '/leads', { apiKey: null });
		expect(missing.status).toBe(401);
		expect(missing.body.message).toMatch(/Chave de API ausente/);
		const wrong = await call(sandbox, 'POST', '/leads', { apiKey: 'x'.repeat(40), body: { emails: [] } });
		expect(wrong.status).toBe(401);
		expect(wrong.body.message).toBe('Chave de API inválida.');
		expect(wrong.text).not.toContain('x'.repeat(40));
	});

	it('reads the key only from the query string, never from a header', async () => {
		const response = await fetch(`${sandbox.url}/api/v1/leads`, {
			headers: { apiKey: DEMO_API_KEY, Authorization: `Bearer ${DEMO_API_KEY}`, 'x-api-key': DEMO_API_KEY },
		});
		expect(response.status).toBe(401);
	});

	it('records every request with the key masked as ***', async () => {
		await call(sandbox, 'GET', '/leads', { query: 'limit=1' });
		const requests = sandbox.control.requests();
		expect(requests.length).toBeGreaterThan(0);
		const last = requests[requests.length - 1];
		expect(last).toMatchObject({ method: 'GET', path: '/api/v1/leads', status: 200, kind: 'read' });
		expect(last.query).toEqual({ apiKey: '***', limit: '1' });
		expect(JSON.stringify(requests)).not.toContain(DEMO_API_KEY);
		const overHttp = await fetch(`${sandbox.url}/__sandbox/requests`).then((r) => r.text());
		expect(overHttp).toContain('"apiKey":"***"');
		expect(overHttp).not.toContain(DEMO_API_KEY);
	});
});

describe('sandbox rate limits', () => {
	const other = 'c'.repeat(40);
	const { sandbox } = useSandbox({ apiKeys: [DEMO_API_KEY, other], windowSeconds: 2, readLimit: 3, writeLimit: 2 });

	it('sends X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset on every /api/v1 response', async () => {
		const before = Date.now();
		const responses = [
			await call(sandbox, 'GET', '/leads', { query: 'limit=1' }),
			await call(sandbox, 'GET', '/prospections', { query: 'status=NOPE' }),
			await call(sandbox, 'GET', '/nope'),
			await call(sandbox, 'GET', '/leads', { apiKey: null }),
			await call(sandbox, 'POST', '/webhooks', { body: {} }),
		];
		expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 401, 400]);
		for (const r of responses) {
			expect(r.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
			expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
			expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
		}
		expect(responses[0].headers.get('x-ratelimit-limit')).toBe('3');
		expect(responses[4].headers.get('x-ratelimit-limit')).toBe('2');
		const reset = Number(responses[0].headers.get('x-ratelimit-reset'));
		// epoch seconds by default: the end of the 2-second window the first request opened
		expect(reset).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 2);
		expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3);
	});

	it('answers 429 with Retry-After in whole seconds once the reads of a window are used up', async () => {
		const remaining: string[] = [];
		for (let i = 0; i < 3; i++) {
			const r = await call(sandbox, 'GET', '/routines');
			expect(r.status).toBe(200);
			remaining.push(r.headers.get('x-ratelimit-remaining')!);
		}
		expect(remaining).toEqual(['2', '1', '0']);
		const limited = await call(sandbox, 'GET', '/routines');
		expect(limited.status).toBe(429);
		expect(limited.body.message).toMatch(/Limite de requisições excedido/);
		const retryAfter = limited.headers.get('retry-after')!;
		expect(retryAfter).toMatch(/^\d+$/);
		expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
		expect(Number(retryAfter)).toBeLessThanOrEqual(2);
		expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
	});

	it('counts reads (GET, HEAD) and writes (POST, PUT, PATCH, DELETE) apart', async () => {
		for (let i = 0; i < 3; i++) await call(sandbox, 'GET', '/routines');
		expect((await call(sandbox, 'GET', '/routines')).status).toBe(429);
		const head = await fetch(`${sandbox.url}/api/v1/routines?apiKey=${DEMO_API_KEY}`, { method: 'HEAD' });
		expect(head.status).toBe(429);
		// Writes still have their own budget.
		const write = await call(sandbox, 'DELETE', '/webhooks/wh_unknown');
		expect(write.status).toBe(404);
		expect(write.headers.get('x-ratelimit-remaining')).toBe('1');
		expect((await call(sandbox, 'PATCH', '/leads', { body: {} })).status).toBe(404);
		expect((await call(sandbox, 'PUT', '/leads', { body: {} })).status).toBe(429);
		expect(sandbox.control.requests().map((r) => r.kind)).toEqual(['read', 'read', 'read', 'read', 'read', 'write', 'write', 'write']);
	});

	it('keeps the counter per API key', async () => {
		for (let i = 0; i < 3; i++) await call(sandbox, 'GET', '/routines');
		expect((await call(sandbox, 'GET', '/routines')).status).toBe(429);
		const otherKey = await call(sandbox, 'GET', '/routines', { apiKey: other });
		expect(otherKey.status).toBe(200);
		expect(otherKey.headers.get('x-ratelimit-remaining')).toBe('2');
	});

	it('opens a fresh window once Retry-After has passed (fixed window)', async () => {
		for (let i = 0; i < 3; i++) await call(sandbox, 'GET', '/routines');
		const limited = await call(sandbox, 'GET', '/routines');
		expect(limited.status).toBe(429);
		await sleep(Number(limited.headers.get('retry-after')) * 1000 + 50);
		const again = await call(sandbox, 'GET', '/routines');
		expect(again.status).toBe(200);
		expect(again.headers.get('x-ratelimit-remaining')).toBe('2');
	});

	it('can be switched off (headers still sent, announcing the full budget) and reconfigured at run time', async () => {
		sandbox.control.setRateLimit({ enabled: false });
		for (let i = 0; i < 6; i++) {
			const before = Date.now();
			const r = await call(sandbox, 'GET', '/routines');
			expect(r.status).toBe(200);
			expect(r.headers.get('x-ratelimit-limit')).toBe('3');
			expect(r.headers.get('x-ratelimit-remaining')).toBe('3');
			const reset = Number(r.headers.get('x-ratelimit-reset'));
			// The end of the second the request arrived in.
			expect(reset).toBeGreaterThanOrEqual(Math.floor(before / 1000));
			expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 1);
		}
		sandbox.control.setRateLimit({ enabled: true, readLimit: 1 });
		expect((await call(sandbox, 'GET', '/routines')).status).toBe(200);
		expect((await call(sandbox, 'GET', '/routines')).status).toBe(429);
		sandbox.control.setRateLimit({ readLimit: 3 });
	});

	it('writes X-RateLimit-Reset as epoch milliseconds or as seconds left when asked', async () => {
		const ms = await startSandbox({ rateLimitResetFormat: 'epoch-ms', windowSeconds: 2 });
		const delta = await startSandbox({ rateLimitResetFormat: 'delta-seconds', windowSeconds: 2 });
		try {
			const a = Number((await call(ms, 'GET', '/routines')).headers.get('x-ratelimit-reset'));
			expect(a).toBeGreaterThan(Date.now());
			expect(a).toBeLessThanOrEqual(Date.now() + 2000);
			const b = Number((await call(delta, 'GET', '/routines')).headers.get('x-ratelimit-reset'));
			expect([1, 2]).toContain(b);
		} finally {
			await ms.stop();
			await delta.stop();
		}
	});
});
