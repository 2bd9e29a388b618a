/**
 * The defects of the rate handling that reviews found, each shown where a user sees it: workflows and tool
 * calls run through n8n's engine against the sandbox, or against a small scripted service where the sandbox cannot
 * answer that way (a Retry-After date, a 429 without hints, a reset in an unusual unit).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { registerNodeType } from '../../dev/harness';
import { onControlledClock } from '../../dev/harness/clock';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm, runToolForm } from '../../dev/harness/tool-form';
import { spikeAcrossWorkers } from '../../dev/spike-model';
import { resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox';
import { retryAfterHoldSeconds, runNode } from './support';

beforeAll(() => registerNodeType(PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm()));
beforeEach(() => resetBudgets());
afterAll(() => resetBudgets());

const sandboxes: RunningSandbox[] = [];
async function sandboxWith(options: SandboxOptions): Promise<RunningSandbox> {
	const sandbox = await startSandbox(options);
	sandboxes.push(sandbox);
	return sandbox;
}
afterAll(async () => await Promise.all(sandboxes.map(async (sandbox) => await sandbox.stop())));

/** A service that answers from a script, one answer per request (the last one repeats), noting when each came. */
async function scriptedService(script: Array<(now: number) => { status: number; headers?: Record<string, string> }>) {
	const at: number[] = [];
	const server = http.createServer((req, res) => {
		const now = Date.now();
		at.push(now);
		const { status, headers = {} } = script[Math.min(at.length - 1, script.length - 1)](now);
		const body = status === 200 ? { data: [{ id: 'cf_1', name: 'Campo' }], meta: { page: 1, totalPages: 1, total: 1, limit: 100, count: 1 } } : { message: 'Limite de requisições atingido.' };
		res.writeHead(status, { 'Content-Type': 'application/json', Date: new Date(now).toUTCString(), ...headers });
		res.end(JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url, apiKey: 'k'.repeat(40), at, stop: async () => await new Promise((resolve) => server.close(resolve)) };
}

const listFields = { resource: 'customField', operation: 'getMany', returnAll: true };
const httpDate = (ms: number) => new Date(ms).toUTCString();

it("1. as a tool, Max Rate Limit Wait is one deadline for the whole call: a 4-page walk bounded half a second past its refusal's hold fails by then, not page by page", async () => {
	const sandbox = await sandboxWith({ windowSeconds: 1, readLimit: 1, rateHeaders: 'on-429', dataset: { leads: 4 } });
	// The second page learns where windows end from one refusal (Retry-After 1 s): the walk waits out its hold, then a
	// window for the third page, which the bound does not leave.
	const held = retryAfterHoldSeconds(1);
	const bound = held + 0.5;
	const started = Date.now();
	const tool = await runToolForm(
		sandbox,
		{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1, maxRateLimitWait: bound } },
		{ credential: { rateLimitWindowSeconds: 1, readsPerWindow: 1 } },
	);
	const tookMs = Date.now() - started;
	const [, waitedText, maximum] = /^Rate limit still reached after waiting (\d+(?:\.\d)?) s in total \(maximum ([\d.]+) s\)/.exec(String(tool.items[0]?.json.error)) ?? [];
	expect(Number(maximum)).toBe(bound);
	// The wait counts from the tool call's start (the hold went before), not from the page that could not go.
	const waited = Number(waitedText);
	expect(waited).toBeGreaterThanOrEqual(held - 0.1);
	expect(waited).toBeLessThanOrEqual(bound);
	expect(tookMs).toBeLessThan((bound + 1) * 1000);
	expect(sandbox.control.requests().length).toBeLessThan(4);
}, 30_000);

it('1. as a tool, the search for a lead whose answer was lost stops at the tool call\'s deadline and ends "may exist"', async () => {
	const sandbox = await sandboxWith({ dataset: { leads: 1 } });
	// Committed long after the 1 s answer timeout and the tool call's 3 s: no search within them can find it.
	sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 20_000, count: 1, methods: ['POST'], pathPrefix: '/leads' });
	const started = Date.now();
	const tool = await runToolForm(sandbox, {
		resource: 'lead',
		operation: 'create',
		name: 'Pessoa Perdida',
		email: 'perdida@example.com',
		options: { timeout: 1, maxRateLimitWait: 3 },
	});
	expect(String(tool.items[0]?.json.error)).toMatch(/may exist/);
	expect(Date.now() - started).toBeLessThan(6000);
}, 30_000);

it('1. as a tool, the Max Rate Limit Wait option added in the form starts at the 30 s the tool waits without it', () => {
	const tool = prospectingToolForm().description;
	const node = { parameters: {}, typeVersion: 1, type: PROSPECTING_TOOL_NODE_TYPE } as unknown as INode;
	const options = tool.properties.filter((property) => property.name === 'options' && property.type === 'collection');
	const shown = options
		.flatMap((collection) => (collection.options ?? []) as INodeProperties[])
		.filter((option) => option.name === 'maxRateLimitWait')
		.filter((option) => NodeHelpers.displayParameter({}, option, node, tool));
	expect(shown.length).toBeGreaterThan(0);
	expect(new Set(shown.map((option) => option.default))).toEqual(new Set([30]));
});

it('2. in a workflow, a refused write keeps its place at the head of the queue: nine writes, the first refused for 1 s, bound 2 s, all succeed', async () => {
	// Slow answers (1.2 s), so that eight calls ahead of the refused one would take longer than its bound.
	const sandbox = await sandboxWith({});
	sandbox.control.injectFault({ kind: 'latency', ms: 1200 });
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 1 });
	const formPost = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, writesPerWindow: 100, mode: 'webhook' } as const;
	const runs = await Promise.all(
		Array.from({ length: 9 }, async (_, index) => {
			const create = { resource: 'lead', operation: 'create', name: `Pessoa ${index}`, email: `fila.${index}@example.com`, options: { maxRateLimitWait: 2 } };
			return await runNode(create, formPost);
		}),
	);
	expect(runs.map((run) => run.error?.message).filter(Boolean)).toEqual([]);
	expect(sandbox.control.leads().filter((lead) => lead.emails[0]?.value.startsWith('fila.'))).toHaveLength(9);
}, 30_000);

it('2. a refused write goes again before the writes that queued behind it while it was held', async () => {
	const sandbox = await sandboxWith({ rateHeaders: 'on-429' });
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 1 });
	// One write a second: the three start at once, one goes, and the other two queue while its answer (the 429) comes.
	const formPost = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, writesPerWindow: 1, rateLimitWindowSeconds: 1, mode: 'webhook' } as const;
	const names = ['primeira', 'segunda', 'terceira'];
	const runs = await Promise.all(
		names.map(async (name) => await runNode({ resource: 'lead', operation: 'create', name, email: `${name}@example.com`, options: { maxRateLimitWait: 10 } }, formPost)),
	);
	expect(runs.map((run) => run.error?.message).filter(Boolean)).toEqual([]);
	expect(sandbox.control.requests().map((request) => request.status)).toEqual([429, 201, 201, 201]);
	const refused = names.filter((_, index) => runs[index].logs.some((line) => line.includes('refused with 429')));
	expect(refused).toHaveLength(1);
	const created = sandbox.control.leads().map((lead) => lead.name).filter((name) => names.includes(name));
	expect(created[0]).toBe(refused[0]);
	expect(created).toHaveLength(3);
}, 30_000);

it('Max Rate Limit Wait: as a tool, a call that a spent window would hold longer fails at once, saying when it could go', async () => {
	const service = await scriptedService([(now) => ({ status: 200, headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 30) } })]);
	try {
		expect((await runNode(listFields, { baseUrl: service.url, apiKey: service.apiKey })).error).toBeUndefined();
		const tool = await runToolForm(service, { ...listFields, options: { maxRateLimitWait: 1 } });
		expect(String(tool.items[0]?.json.error)).toMatch(
			/The rate limit of this key lets this call go in \d+(\.\d)? s at the earliest, more than the 1 s left of the maximum, so it was not sent\./,
		);
		expect(service.at).toHaveLength(1);
	} finally {
		await service.stop();
	}
});

it('Max Rate Limit Wait: in a workflow, a call whose window is spent waits for its end, since waiting for its turn is not counted', async () => {
	const service = await scriptedService([(now) => ({ status: 200, headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 30) } })]);
	try {
		const credential = { baseUrl: service.url, apiKey: service.apiKey };
		await onControlledClock(async () => {
			expect((await runNode(listFields, credential)).error).toBeUndefined();
			expect((await runNode({ ...listFields, options: { maxRateLimitWait: 1 } }, credential)).error).toBeUndefined();
		});
		expect(service.at[1] - service.at[0]).toBeGreaterThanOrEqual(29_000);
	} finally {
		await service.stop();
	}
});

it('3. as a tool, a read whose connection keeps failing until its deadline fails with that failure, not as a rate limit', async () => {
	const sandbox = await sandboxWith({ dataset: { customFields: 1 } });
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 10 });
	const started = Date.now();
	const tool = await runToolForm(sandbox, { ...listFields, options: { maxRateLimitWait: 1 } });
	// Retried 0.3 s and 0.6 s later; the next retry (1.2 s later) would pass the deadline, so the read ends there.
	expect(Date.now() - started).toBeLessThan(2500);
	expect(sandbox.control.requests().length).toBeLessThanOrEqual(3);
	const answer = String(tool.items[0]?.json.error);
	expect(answer).not.toMatch(/Rate limit/);
	expect(answer).toMatch(/connection|network|socket|reset|hang up/i);
}, 30_000);

it("4. a Retry-After date is read against the answer's Date: a service 5 s behind asking for 3 s gets 3 s", async () => {
	const service = await scriptedService([
		(now) => ({ status: 429, headers: { Date: httpDate(now - 5000), 'Retry-After': httpDate(Math.floor((now - 5000) / 1000) * 1000 + 3000) } }),
		() => ({ status: 200 }),
	]);
	try {
		const run = await runNode(listFields, { baseUrl: service.url, apiKey: service.apiKey });
		expect(run.error).toBeUndefined();
		expect(service.at).toHaveLength(2);
		expect(service.at[1] - service.at[0]).toBeGreaterThanOrEqual(2900);
	} finally {
		await service.stop();
	}
}, 30_000);

it('5. with Rate Limit Window 0, a 429 without Retry-After or reset holds the key 60 s', async () => {
	const service = await scriptedService([() => ({ status: 429 }), () => ({ status: 200 })]);
	try {
		const { result: run } = await onControlledClock(
			async () => await runNode(listFields, { baseUrl: service.url, apiKey: service.apiKey, rateLimitWindowSeconds: 0 }),
		);
		expect(run.error).toBeUndefined();
		expect(service.at[1] - service.at[0]).toBeGreaterThanOrEqual(60_000);
	} finally {
		await service.stop();
	}
});

it('6. an X-RateLimit-Reset of "60000" that no unit places within a window is not read as 16.7 hours: the 429 holds one window', async () => {
	const service = await scriptedService([
		() => ({ status: 429, headers: { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '60000' } }),
		() => ({ status: 200 }),
	]);
	try {
		const { result: run } = await onControlledClock(async () => await runNode(listFields, { baseUrl: service.url, apiKey: service.apiKey }));
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(service.at[1] - service.at[0]).toBeGreaterThanOrEqual(60_000);
		expect(service.at[1] - service.at[0]).toBeLessThan(62_000);
	} finally {
		await service.stop();
	}
});

it("7. a change of the credential's limits applies from the next call, under steady traffic", async () => {
	const sandbox = await sandboxWith({ rateHeaders: 'on-429', dataset: { customFields: 1 } });
	const credential = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, readsPerWindow: 1 };
	const { elapsedMs } = await onControlledClock(async () => {
		expect((await runNode(listFields, credential)).error).toBeUndefined();
		// The window's one read is spent; the credential now allows ten. Two more reads: one read more than a pace of one
		// may go while the budget does not know where windows end, so only the second shows the new limit applied.
		for (let run = 0; run < 2; run++) expect((await runNode(listFields, { ...credential, readsPerWindow: 10 })).error).toBeUndefined();
	});
	expect(elapsedMs).toBeLessThan(5000);
	expect(sandbox.control.requests().map((request) => request.status)).toEqual([200, 200, 200]);
});

it("8. a service clock 5 s ahead is read against the answer's Date: a walk across windows announced by their resets waits for each, not 5 s more", async () => {
	const sandbox = await sandboxWith({ windowSeconds: 1, readLimit: 2, clockOffsetMs: 5000, rateLimitResetFormat: 'epoch-ms', dataset: { leads: 6 } });
	const { result: run, elapsedMs } = await onControlledClock(
		async () =>
			await runNode({ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1 } }, {
				baseUrl: sandbox.url,
				apiKey: sandbox.apiKey,
				// Window 0: the resets alone tell where windows end.
				rateLimitWindowSeconds: 0,
				readsPerWindow: 2,
			}),
	);
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(6);
	expect(sandbox.control.requests().filter((request) => request.status === 429)).toHaveLength(0);
	// Three windows of 1 s, each read up to a second late from the Date's whole seconds: well under 5 s a window.
	expect(elapsedMs).toBeLessThan(7000);
});

it('9. a key that keeps refusing is tried one call at a time: six executions send one request per Retry-After once it refused again, not one a second each', async () => {
	const sandbox = await sandboxWith({ dataset: { customFields: 1 } });
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1000, retryAfterSeconds: 1 });
	const credential = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
	const { result: runs } = await onControlledClock(
		async () => await Promise.all(Array.from({ length: 6 }, async () => await runNode({ ...listFields, options: { maxRateLimitWait: 7 } }, credential))),
	);
	expect(runs.every((run) => /Rate limit still reached/.test(String(run.error?.message)))).toBe(true);
	// Six at once, six again after the first 1 s hold, then one a second; one request a second per execution would be 42.
	expect(sandbox.control.requests().length).toBeLessThanOrEqual(6 + 6 + 7);
});

describe('the defects of a later review, tried as users would', () => {
	const statuses = (sandbox: RunningSandbox) => sandbox.control.requests().map((request) => request.status);

	it("N1. a credential with a 1 s window leaves another credential's spent 60 s budget alone: that key's next call waits for its window", async () => {
		const sandbox = await sandboxWith({ apiKeys: ['a'.repeat(40), 'b'.repeat(40)], windowSeconds: 60, readLimit: 1, dataset: { customFields: 1 } });
		const slow = { baseUrl: sandbox.url, apiKey: 'a'.repeat(40), readsPerWindow: 1, rateLimitWindowSeconds: 60 };
		const fast = { baseUrl: sandbox.url, apiKey: 'b'.repeat(40), readsPerWindow: 1, rateLimitWindowSeconds: 1 };
		await onControlledClock(async () => {
			expect((await runNode(listFields, slow)).error).toBeUndefined();
			await new Promise((resolve) => setTimeout(resolve, 3100));
			expect((await runNode(listFields, fast)).error).toBeUndefined();
			expect((await runNode(listFields, slow)).error).toBeUndefined();
		});
		expect(statuses(sandbox)).toEqual([200, 200, 200]);
		const [first, , again] = sandbox.control.requests();
		expect(Date.parse(again.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(59_000);
	});

	it('N2. X-RateLimit-Reset Unit switched back to Auto decides the unit itself: a spent window resumes at its reset', async () => {
		const sandbox = await sandboxWith({ windowSeconds: 60, readLimit: 2, rateLimitResetFormat: 'epoch-ms', clockWindows: true, dataset: { customFields: 1 } });
		const credential = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, readsPerWindow: 2 };
		await onControlledClock(async () => {
			// 50 s into one of the service's windows, which are aligned to the clock.
			await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 50_000));
			// Seconds From Now puts the service's epoch milliseconds thousands of years ahead.
			expect((await runNode(listFields, { ...credential, rateLimitResetUnit: 'secondsFromNow' })).error).toBeUndefined();
			for (let run = 0; run < 2; run++) expect((await runNode(listFields, { ...credential, rateLimitResetUnit: 'auto' })).error).toBeUndefined();
		});
		const [first, , last] = sandbox.control.requests();
		expect(statuses(sandbox)).toEqual([200, 200, 200]);
		expect(Date.parse(last.at) - Date.parse(first.at)).toBeLessThanOrEqual(11_000);
	});

	it('N3. an explicit X-RateLimit-Reset Unit that puts the reset in 1970 does not unpace the calls: ten pages at three a window draw no 429', async () => {
		const sandbox = await sandboxWith({ windowSeconds: 1, readLimit: 3, rateLimitResetFormat: 'delta-seconds', dataset: { leads: 10 } });
		const credential = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, readsPerWindow: 3, rateLimitWindowSeconds: 1, rateLimitResetUnit: 'epochSeconds' } as const;
		const { result: run } = await onControlledClock(async () => await runNode({ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1 } }, credential));
		expect(run.items).toHaveLength(10);
		expect(statuses(sandbox).filter((status) => status === 429)).toEqual([]);
	});

	it('N4. a Retry-After of 60000 (milliseconds sent as seconds) does not hold the key for hours: the call goes again within a window', async () => {
		const service = await scriptedService([() => ({ status: 429, headers: { 'Retry-After': '60000' } }), () => ({ status: 200 })]);
		try {
			const { result: run } = await onControlledClock(async () => await runNode(listFields, { baseUrl: service.url, apiKey: service.apiKey }));
			expect(run.error?.message).toBeUndefined();
			expect(service.at[1] - service.at[0]).toBeLessThanOrEqual(61_000);
		} finally {
			await service.stop();
		}
	});

	it('N5. two refused reads go again in the order they were first sent, not the other way round', async () => {
		const sandbox = await sandboxWith({ windowSeconds: 3, readLimit: 1, dataset: { leads: 2 } });
		// Another client of the key spends the window's one read.
		const other = await new Promise<number | undefined>((resolve, reject) =>
			http.get(`${sandbox.url}/api/v1/custom-fields?apiKey=${sandbox.apiKey}`, { agent: false }, (res) => resolve(res.resume().statusCode)).on('error', reject),
		);
		expect(other).toBe(200);
		// Slow answers: the second read is on its way before the first one's refusal comes back.
		sandbox.control.injectFault({ kind: 'latency', ms: 400 });
		const credential = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, readsPerWindow: 2, rateLimitWindowSeconds: 3 };
		const read = async (limit: number) => await runNode({ resource: 'lead', operation: 'getMany', returnAll: false, limit }, credential);
		const first = read(1);
		await new Promise((resolve) => setTimeout(resolve, 150));
		const runs = await Promise.all([first, read(2)]);
		expect(runs.map((run) => run.error?.message)).toEqual([undefined, undefined]);
		const requests = sandbox.control.requests().slice(1);
		expect(requests.map((request) => request.status)).toEqual([429, 429, 200, 200]);
		// Each read's query tells it apart: they went again as they went first.
		expect(requests.slice(2).map((request) => request.query)).toEqual(requests.slice(0, 2).map((request) => request.query));
	}, 30_000);

	it('N6. one key behind two base URLs has one budget: together they keep to its limit', async () => {
		const sandbox = await sandboxWith({ windowSeconds: 60, readLimit: 2, dataset: { customFields: 1 } });
		const port = new URL(sandbox.url).port;
		const credentials = [`http://127.0.0.1:${port}`, `http://localhost:${port}`].map((baseUrl) => ({ baseUrl, apiKey: sandbox.apiKey, readsPerWindow: 2 }));
		await onControlledClock(async () => {
			for (const credential of [...credentials, ...credentials]) expect((await runNode(listFields, credential)).error).toBeUndefined();
		});
		expect(statuses(sandbox)).toEqual([200, 200, 200, 200]);
	});

	it('R3. as a tool, a read whose connection keeps dropping at two reads a window fails with that failure, not as a rate limit', async () => {
		const sandbox = await sandboxWith({ dataset: { customFields: 1 } });
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 10 });
		const tool = await runToolForm(sandbox, { ...listFields, options: { maxRateLimitWait: 3 } }, { credential: { readsPerWindow: 2 } });
		const answer = String(tool.items[0]?.json.error);
		expect(answer).not.toMatch(/Rate limit/);
		expect(answer).toMatch(/connection|network|socket|reset|hang up/i);
	}, 30_000);

	it('Q. four workers of ten executions share a key with "n8n Processes Sharing This Key" left at 1: of 1,000 form posts none fails, every lead is created and added, and few calls are refused', async () => {
		// The queue-mode spike on the rate budgets alone: 40 writes per 5 s window, headers on every answer, each call
		// bounded by the default Max Rate Limit Wait of 300 s.
		const options = { workers: 4, executions: 1000, windowMs: 5000, limit: 40, tripMs: [20, 100] as [number, number], processesStated: false, maxWaitMs: 300_000 };
		const { result } = await onControlledClock(async () => await spikeAcrossWorkers(options));
		expect(result.failedExecutions).toBe(0);
		expect(result.callsPerWindow.reduce((sum, calls) => sum + calls, 0)).toBe(2 * 1000);
		expect(result.refused).toBeLessThanOrEqual(50);
		expect(result.longestHoldMs).toBeLessThanOrEqual(result.longestAskedMs);
	}, 120_000);

	it("7. lowered from ten reads to one, a credential's limit applies from the next call: with headers on every answer it waits for the window", async () => {
		const sandbox = await sandboxWith({ dataset: { customFields: 1 } });
		const credential = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, readsPerWindow: 10 };
		const { elapsedMs } = await onControlledClock(async () => {
			expect((await runNode(listFields, credential)).error).toBeUndefined();
			expect((await runNode(listFields, { ...credential, readsPerWindow: 1 })).error).toBeUndefined();
		});
		expect(elapsedMs).toBeGreaterThanOrEqual(59_000);
		expect(statuses(sandbox)).toEqual([200, 200]);
	});
});
