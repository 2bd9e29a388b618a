/** The control API (reset, request log) and injected faults; bad requests never crash the sandbox. */
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { DEMO_API_KEY, startSandbox, type RunningSandbox } from '../../sandbox';
import { call } from '../support/service';
import { useSandbox } from '../support/sandbox';

const lead = { name: 'Falha Teste', emails: [{ value: 'falha@example.com', label: 'trabalho' }] };

async function attempt(sandbox: RunningSandbox, method: string, p: string, body?: unknown) {
	try {
		const r = await call(sandbox, method, p, { body });
		return { dropped: false, status: r.status, result: r };
	} catch {
		return { dropped: true, status: 0, result: undefined };
	}
}

describe('sandbox control API and faults', () => {
	const { sandbox } = useSandbox({ rateLimit: false });

	it('resets to the seeded dataset and clears webhooks, deliveries, requests, faults and windows', async () => {
		const leadsBefore = sandbox.control.leads().map((l) => l.id);
		await call(sandbox, 'POST', '/leads', { body: lead });
		await call(sandbox, 'POST', '/webhooks', { body: { name: 'w', url: 'http://127.0.0.1:1/x', events: ['prospection.won'] } });
		sandbox.control.injectFault({ kind: 'status', status: 500, count: 5 });
		const reset = await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
		expect(reset.status).toBe(200);
		expect(sandbox.control.leads().map((l) => l.id)).toEqual(leadsBefore);
		expect(sandbox.control.webhooks()).toEqual([]);
		expect(sandbox.control.requests()).toEqual([]);
		expect(sandbox.control.deliveries()).toEqual([]);
		expect((await call(sandbox, 'GET', '/leads')).status).toBe(200);
	});

	it('answers the next N matching requests with 500/502/503, then recovers', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 2, methods: ['GET'], pathPrefix: '/leads' });
		expect((await call(sandbox, 'GET', '/routines')).status).toBe(200);
		const first = await call(sandbox, 'GET', '/leads');
		expect(first.status).toBe(503);
		expect(first.body.message).toMatch(/indisponível/);
		expect(first.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
		expect((await call(sandbox, 'POST', '/leads', { body: lead })).status).toBe(201);
		expect((await call(sandbox, 'GET', '/leads')).status).toBe(503);
		expect((await call(sandbox, 'GET', '/leads')).status).toBe(200);
		sandbox.control.injectFault({ kind: 'status', status: 500, count: 1 });
		sandbox.control.injectFault({ kind: 'status', status: 502, count: 1 });
		expect((await call(sandbox, 'GET', '/custom-fields')).status).toBe(500);
		expect((await call(sandbox, 'GET', '/custom-fields')).status).toBe(502);
	});

	it('drops the connection before a write commits: no response and no record created', async () => {
		const count = sandbox.control.leads().length;
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		const dropped = await attempt(sandbox, 'POST', '/leads', lead);
		expect(dropped.dropped).toBe(true);
		expect(sandbox.control.leads()).toHaveLength(count);
		const recorded = sandbox.control.requests().at(-1)!;
		expect(recorded).toMatchObject({ method: 'POST', status: 0, dropped: true, kind: 'write' });
		expect((await attempt(sandbox, 'POST', '/leads', lead)).status).toBe(201);
	});

	it('drops the connection after a write commits: no response, yet the record exists (the lost-response case)', async () => {
		const count = sandbox.control.leads().length;
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, pathPrefix: '/api/v1/leads' });
		const dropped = await attempt(sandbox, 'POST', '/leads', lead);
		expect(dropped.dropped).toBe(true);
		expect(sandbox.control.leads()).toHaveLength(count + 1);
		const found = await call(sandbox, 'GET', '/leads', { query: 'search=falha@example.com' });
		expect(found.body.meta.total).toBe(1);
	});

	it('a slow commit applies the write after commitAfterMs even when the caller gave up, and answers after answerAfterMs', async () => {
		const count = sandbox.control.leads().length;
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 400, answerAfterMs: 600, count: 1, methods: ['POST'] });
		// The caller gives up before the commit, as a client with a shorter timeout would.
		const gaveUp = await fetch(`${sandbox.url}/api/v1/leads?apiKey=${sandbox.apiKey}`, {
			method: 'POST',
			body: JSON.stringify({ ...lead, name: 'Lenta Um' }),
			headers: { 'Content-Type': 'application/json' },
			signal: AbortSignal.timeout(150),
		}).catch((error: Error) => error.name);
		expect(gaveUp).toBe('TimeoutError');
		expect(sandbox.control.leads()).toHaveLength(count);
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(sandbox.control.leads().map((l) => l.name)).toContain('Lenta Um');
		// A caller that waits gets the answer after answerAfterMs.
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 100, answerAfterMs: 300, count: 1, methods: ['POST'] });
		const started = Date.now();
		expect((await call(sandbox, 'POST', '/leads', { body: { ...lead, name: 'Lenta Dois' } })).status).toBe(201);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(sandbox.control.leads()).toHaveLength(count + 2);
		// A gateway that gives up before the commit answers 504; the service still applies the write.
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 300, gatewayTimeoutMs: 100, count: 1, methods: ['POST'] });
		expect((await call(sandbox, 'POST', '/leads', { body: { ...lead, name: 'Lenta Três' } })).status).toBe(504);
		expect(sandbox.control.leads()).toHaveLength(count + 2);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(sandbox.control.leads().map((l) => l.name)).toContain('Lenta Três');
	});

	it('a 502 or 504 after the commit: the write is applied and the answer is the gateway status', async () => {
		const count = sandbox.control.leads().length;
		sandbox.control.injectFault({ kind: 'status', status: 504, when: 'after-commit', count: 1, methods: ['POST'] });
		sandbox.control.injectFault({ kind: 'status', status: 502, when: 'after-commit', count: 1, methods: ['POST'] });
		expect((await call(sandbox, 'POST', '/leads', { body: lead })).status).toBe(504);
		expect((await call(sandbox, 'POST', '/leads', { body: lead })).status).toBe(502);
		expect(sandbox.control.leads()).toHaveLength(count + 2);
		expect((await call(sandbox, 'POST', '/leads', { body: lead })).status).toBe(201);
		expect(sandbox.control.requests().map((r) => r.status)).toEqual([504, 502, 201]);
	});

	it('drops with a seeded probability: the same seed drops the same requests', async () => {
		const pattern = async (s: RunningSandbox) => {
			s.control.injectFault({ kind: 'drop', when: 'before-commit', count: 100, probability: 0.5, methods: ['GET'] });
			const outcome: boolean[] = [];
			for (let i = 0; i < 24; i++) outcome.push((await attempt(s, 'GET', '/routines')).dropped);
			s.control.clearFaults();
			return outcome;
		};
		const twin = await startSandbox({ rateLimit: false });
		try {
			const a = await pattern(sandbox);
			const b = await pattern(twin);
			expect(a).toEqual(b);
			expect(a).toContain(true);
			expect(a).toContain(false);
		} finally {
			await twin.stop();
		}
	});

	it('adds latency to every request until faults are cleared', async () => {
		sandbox.control.injectFault({ kind: 'latency', ms: 300 });
		const started = Date.now();
		expect((await call(sandbox, 'GET', '/routines')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		sandbox.control.clearFaults();
		expect((await call(sandbox, 'GET', '/routines')).status).toBe(200);
	});

	it('forces 429s with a chosen Retry-After', async () => {
		sandbox.control.injectFault({ kind: 'rate-limit', count: 2, retryAfterSeconds: 3 });
		for (let i = 0; i < 2; i++) {
			const r = await call(sandbox, 'GET', '/leads');
			expect(r.status).toBe(429);
			expect(r.headers.get('retry-after')).toBe('3');
			expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
			expect(r.body.message).toMatch(/Limite de requisições/);
		}
		expect((await call(sandbox, 'GET', '/leads')).status).toBe(200);
	});

	it('answers 200 with a non-JSON or meta-less body when asked', async () => {
		sandbox.control.injectFault({ kind: 'malformed', count: 1 });
		const html = await call(sandbox, 'GET', '/leads');
		expect(html.status).toBe(200);
		expect(html.body).toBeUndefined();
		expect(html.headers.get('content-type')).toMatch(/text\/html/);
		sandbox.control.injectFault({ kind: 'malformed', count: 1, body: '{"data":[]}', pathPrefix: '/prospections' });
		expect((await call(sandbox, 'GET', '/leads')).body.meta).toBeDefined();
		expect((await call(sandbox, 'GET', '/prospections')).body).toEqual({ data: [] });
	});

	it('answers any write with any 5xx after its commit: the write is applied, the answer is the status', async () => {
		const routine = sandbox.control.routines()[0];
		const leadId = sandbox.control.leads()[0].id;
		const webhook = await call(sandbox, 'POST', '/webhooks', { body: { name: 'w', url: 'https://example.com/h', events: ['prospection.won'] } });
		sandbox.control.injectFault({ kind: 'status', status: 500, when: 'after-commit', count: 1, methods: ['POST'], pathPrefix: '/leads' });
		sandbox.control.injectFault({ kind: 'status', status: 503, when: 'after-commit', count: 1, pathPrefix: '/routines' });
		sandbox.control.injectFault({ kind: 'status', status: 524, when: 'after-commit', count: 1, methods: ['DELETE'] });

		expect((await call(sandbox, 'POST', '/leads', { body: lead })).status).toBe(500);
		expect(sandbox.control.leads().filter((l) => l.name === lead.name)).toHaveLength(1);
		const added = await call(sandbox, 'POST', `/routines/${routine.id}/lead`, { body: { leadId } });
		expect(added.status).toBe(503);
		expect(added.body.message).toMatch(/indisponível \(503\)/);
		expect(sandbox.control.leads().find((l) => l.id === leadId)?.routineIds).toContain(routine.id);
		expect((await call(sandbox, 'DELETE', `/webhooks/${webhook.body.id}`)).status).toBe(524);
		expect(sandbox.control.webhooks()).toHaveLength(0);
	});

	it('answers a 5xx with a body of its own, such as a proxy\'s HTML page', async () => {
		const page = '<html><body>Bad gateway</body></html>';
		sandbox.control.injectFault({ kind: 'status', status: 502, count: 1, body: page, contentType: 'text/html' });
		const answer = await call(sandbox, 'GET', '/leads');
		expect(answer.status).toBe(502);
		expect(answer.headers.get('content-type')).toBe('text/html');
		expect(answer.text).toBe(page);
	});

	it('answers a write with a 200 HTML page before its commit (nothing applied) or after it (applied)', async () => {
		sandbox.control.injectFault({ kind: 'malformed', count: 1, methods: ['POST'] });
		const before = await call(sandbox, 'POST', '/leads', { body: lead });
		expect(before.status).toBe(200);
		expect(before.headers.get('content-type')).toMatch(/text\/html/);
		expect(before.text).toMatch(/^<!DOCTYPE html>/);
		expect(sandbox.control.leads().filter((l) => l.name === lead.name)).toHaveLength(0);

		sandbox.control.injectFault({ kind: 'malformed', count: 1, when: 'after-commit', methods: ['POST'] });
		const after = await call(sandbox, 'POST', '/leads', { body: lead });
		expect(after.status).toBe(200);
		expect(after.headers.get('content-type')).toMatch(/text\/html/);
		expect(sandbox.control.leads().filter((l) => l.name === lead.name)).toHaveLength(1);

		sandbox.control.injectFault({ kind: 'malformed', count: 1, when: 'after-commit', body: '{"ok":true}', status: 201, pathPrefix: '/webhooks' });
		const noRecord = await call(sandbox, 'POST', '/webhooks', { body: { name: 'w', url: 'https://example.com/h', events: ['x'] } });
		expect([noRecord.status, noRecord.body]).toEqual([201, { ok: true }]);
		expect(sandbox.control.webhooks()).toHaveLength(1);
	});

	it('answers with a redirect to its Location and applies nothing', async () => {
		const location = 'https://moved.example.com/api/v1/leads';
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location, count: 1, methods: ['POST'] });
		const response = await fetch(`${sandbox.url}/api/v1/leads?apiKey=${DEMO_API_KEY}`, {
			method: 'POST',
			body: JSON.stringify(lead),
			redirect: 'manual',
		});
		expect(response.status).toBe(301);
		expect(response.headers.get('location')).toBe(location);
		expect(sandbox.control.leads().filter((l) => l.name === lead.name)).toHaveLength(0);
		expect((await call(sandbox, 'POST', '/leads', { body: lead })).status).toBe(201);
	});

	it('takes the 5xx, HTML and redirect faults over HTTP and rejects invalid ones', async () => {
		const post = (body: unknown) =>
			fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
		const valid = [
			{ kind: 'status', status: 524, when: 'after-commit', count: 1, methods: ['POST'], body: '<html></html>', contentType: 'text/html' },
			{ kind: 'malformed', when: 'after-commit', count: 1, methods: ['POST'] },
			{ kind: 'redirect', status: 308, location: 'https://elsewhere.example.com/', count: 1 },
		];
		expect((await post(valid)).status).toBe(200);
		const listed = (await fetch(`${sandbox.url}/__sandbox/faults`).then((r) => r.json())) as { data: unknown[] };
		expect(listed.data).toEqual(expect.arrayContaining(valid.map((fault) => expect.objectContaining(fault))));
		const invalid = [
			{ kind: 'redirect', status: 301, location: ' ', count: 1 },
			{ kind: 'redirect', status: 300, location: 'https://x.example.com/', count: 1 },
			{ kind: 'status', status: 399, count: 1 },
			{ kind: 'status', status: 429, count: 1 },
			{ kind: 'malformed', status: 302, count: 1 },
			{ kind: 'malformed', when: 'later', count: 1 },
			{ kind: 'status', status: 500, body: 42, count: 1 },
		];
		for (const fault of invalid) expect((await post(fault)).status).toBe(400);
		const moved = await fetch(`${sandbox.url}/api/v1/leads?apiKey=${DEMO_API_KEY}`, { redirect: 'manual' });
		expect([moved.status, moved.headers.get('location')]).toEqual([308, 'https://elsewhere.example.com/']);
	});

	it('stamps its Date header with its own clock, ahead of the real one by clockOffsetMs', async () => {
		sandbox.control.setRateLimit({ clockOffsetMs: 3_600_000 });
		try {
			const ahead = Date.parse(String((await call(sandbox, 'GET', '/leads')).headers.get('date'))) - Date.now();
			expect(ahead).toBeGreaterThan(3_590_000);
			expect(ahead).toBeLessThan(3_610_000);
		} finally {
			sandbox.control.setRateLimit({ clockOffsetMs: 0 });
		}
		const now = Date.parse(String((await call(sandbox, 'GET', '/leads')).headers.get('date'))) - Date.now();
		expect(Math.abs(now)).toBeLessThan(2_000);
	});

	it('stamps the leads it creates with its own clock, as its Date header shows it, or sends no Date header when told', async () => {
		sandbox.control.setRateLimit({ clockOffsetMs: -600_000 });
		try {
			const created = await call(sandbox, 'POST', '/leads', { body: lead });
			const date = Date.parse(String(created.headers.get('date')));
			expect(Math.abs(Date.parse(created.body.createdAt) - date)).toBeLessThan(2_000);
			expect(Date.now() - Date.parse(created.body.createdAt)).toBeGreaterThan(590_000);
			sandbox.control.setRateLimit({ dateHeader: false });
			expect((await call(sandbox, 'GET', '/leads')).headers.get('date')).toBeNull();
		} finally {
			sandbox.control.setRateLimit({ clockOffsetMs: 0, dateHeader: true });
		}
		expect((await call(sandbox, 'GET', '/leads')).headers.get('date')).not.toBeNull();
	});

	it('records each write with its body and what it applied, also when the answer was lost after the commit', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		expect((await attempt(sandbox, 'POST', '/leads', lead)).dropped).toBe(true);
		await call(sandbox, 'GET', '/leads');
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		expect((await attempt(sandbox, 'POST', '/leads', lead)).dropped).toBe(true);
		const [afterCommit, read, beforeCommit] = sandbox.control.requests();
		const createdLead = sandbox.control.leads().at(-1)!;
		expect(afterCommit).toEqual(
			expect.objectContaining({ body: lead, dropped: true, applied: { at: createdLead.createdAt, recordId: createdLead.id } }),
		);
		expect(read.body).toBeUndefined();
		expect(read.remotePort).toEqual(expect.any(Number));
		expect(beforeCommit).toEqual(expect.objectContaining({ body: lead, dropped: true }));
		expect(beforeCommit.applied).toBeUndefined();
	});

	it('accepts a key it is given as another account\'s, and refuses it with 401 before', async () => {
		const key = 'sbx_other_account_0000000000000000000000';
		expect((await call(sandbox, 'GET', '/custom-fields', { apiKey: key })).status).toBe(401);
		sandbox.control.acceptKey(key);
		expect((await call(sandbox, 'GET', '/custom-fields', { apiKey: key })).status).toBe(200);
		expect(() => sandbox.control.acceptKey(' ')).toThrow('A chave deve ser um texto não vazio.');
	});

	it('takes a fault per request from a plan, which sees each request as it arrives, before the injected faults', async () => {
		const seen: string[] = [];
		sandbox.control.injectFault({ kind: 'status', status: 500, count: 5 });
		sandbox.control.planFaults((request) => {
			seen.push(`${request.method} ${request.path}`);
			return seen.length === 1 ? { kind: 'status', status: 503, count: 1 } : { kind: 'rate-limit', count: 1, hints: false };
		});
		try {
			expect((await call(sandbox, 'GET', '/leads')).status).toBe(503);
			const bare = await call(sandbox, 'POST', '/leads', { body: lead });
			expect(bare.status).toBe(429);
			expect([...bare.headers.keys()].filter((name) => /^(retry-after|x-ratelimit)/.test(name))).toEqual([]);
			expect(seen).toEqual(['GET /api/v1/leads', 'POST /api/v1/leads']);
		} finally {
			sandbox.control.planFaults(undefined);
		}
		expect((await call(sandbox, 'GET', '/leads')).status).toBe(500);
	});

	it('takes faults over HTTP, lists them, rejects invalid ones and clears them', async () => {
		const post = (body: unknown) =>
			fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
		expect((await post([{ kind: 'status', status: 500, count: 3 }, { kind: 'latency', ms: 1 }])).status).toBe(200);
		const listed = (await fetch(`${sandbox.url}/__sandbox/faults`).then((r) => r.json())) as any;
		expect(listed.data).toHaveLength(2);
		expect((await post({ kind: 'status', status: 200, count: 1 })).status).toBe(400);
		expect((await post({ kind: 'explode' })).status).toBe(400);
		expect(() => sandbox.control.injectFault({ kind: 'drop', when: 'later', count: 1 } as never)).toThrow(/when/);
		expect((await call(sandbox, 'GET', '/leads')).status).toBe(500);
		expect((await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' })).status).toBe(200);
		expect((await call(sandbox, 'GET', '/leads')).status).toBe(200);
	});

	it('survives bad requests of every kind and keeps its data whole', async () => {
		const count = sandbox.control.leads().length;
		const key = `apiKey=${DEMO_API_KEY}`;
		const bad: Array<[string, RequestInit]> = [
			[`/api/v1/leads/%E0%A4%A?${key}`, {}],
			[`/api/v1/leads?${key}&limit=%FF`, {}],
			[`/api/v1/leads?${key}`, { method: 'POST', body: 'x'.repeat(1_100_000), headers: { 'content-type': 'application/json' } }],
			[`/api/v1/leads?${key}`, { method: 'POST', body: '<xml/>', headers: { 'content-type': 'text/xml' } }],
			[`/api/v1/leads?${key}`, { method: 'POST', body: 'null', headers: { 'content-type': 'application/json' } }],
			[`/api/v1/leads?${key}`, { method: 'POST', body: JSON.stringify({ emails: [{ value: 'ok@example.com', label: 'x' }], phones: [{ value: 1 }] }) }],
			[`/api/v1/routines/${encodeURIComponent('../../etc')}/lead?${key}`, { method: 'POST', body: '{}' }],
			[`/api/v1/webhooks?${key}`, { method: 'POST', body: '{"name":"x","url":"http://","events":[null]}' }],
			[`/__sandbox/faults`, { method: 'POST', body: '{oops' }],
			[`/__sandbox/prospections/x/status`, { method: 'POST', body: '[]' }],
			[`/elsewhere`, {}],
		];
		for (const [p, init] of bad) {
			const response = await fetch(`${sandbox.url}${p}`, init);
			expect(response.status).toBeGreaterThanOrEqual(400);
			expect(response.status).toBeLessThan(500);
			const body = (await response.json()) as any;
			expect(typeof body.message).toBe('string');
		}
		// A raw, non-HTTP client is answered or dropped without harm.
		await new Promise<void>((resolve) => {
			const socket = net.connect(Number(new URL(sandbox.url).port), '127.0.0.1', () => socket.end('GARBAGE \x00\x01\r\n\r\n'));
			socket.on('close', () => resolve());
			socket.on('error', () => resolve());
			socket.resume();
		});
		expect(sandbox.control.leads()).toHaveLength(count);
		expect((await call(sandbox, 'GET', '/leads', { query: 'limit=1' })).status).toBe(200);
	});

	it('generates 100,000 leads quickly and still pages them by slicing', async () => {
		const started = Date.now();
		const big = await startSandbox({ rateLimit: false, dataset: { leads: 100_000 } });
		const elapsed = Date.now() - started;
		try {
			// Generous sanity bound on a shared 2-core machine; the README records the measured figure.
			expect(elapsed).toBeLessThan(15_000);
			const last = await call(big, 'GET', '/leads', { query: 'limit=100&page=1000&orderDirection=desc' });
			expect(last.body.meta).toEqual({ limit: 100, count: 100, total: 100_000, page: 1000, totalPages: 1000 });
			expect(last.body.data[99].id).toBe(big.control.leads()[0].id);
		} finally {
			await big.stop();
		}
	});
});

describe('sandbox command line', () => {
	it('starts with flags, prints its URL, the demo key and the control endpoints, and stops on SIGTERM', async () => {
		const root = path.resolve(__dirname, '../..');
		const child = spawn(
			process.execPath,
			[require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'sandbox/cli.ts', '--port', '0', '--leads', '50', '--read-limit', '7', '--seed', '3'],
			{ cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		try {
			const deadline = Date.now() + 30_000;
			while (!/listening on (http:\/\/\S+)/.test(output) && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			const url = /listening on (http:\/\/\S+)/.exec(output)![1];
			expect(output).toContain(DEMO_API_KEY);
			expect(output).toContain('/__sandbox/reset');
			const response = await fetch(`${url}/api/v1/leads?apiKey=${DEMO_API_KEY}&limit=1`);
			expect(response.status).toBe(200);
			expect(response.headers.get('x-ratelimit-limit')).toBe('7');
			expect(((await response.json()) as any).meta.total).toBe(50);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	});
});
