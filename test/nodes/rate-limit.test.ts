/**
 * Rate limits: waiting before a refusal, 429 with Retry-After and doubling, giving up, the shared budget.
 * Every run is on a controlled clock shared by the node and the sandbox (dev/harness/clock.ts): the
 * windows and waits below are sat out in full, without the real seconds.
 */
import { startSandbox } from '../../sandbox';
import type { RunningSandbox, SandboxOptions } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import { onControlledClock } from '../../dev/harness/clock';
import { expectNoSecret, jsonOf, retryAfterHoldSeconds, runNode, runNodeOnClock } from './support';

const running: RunningSandbox[] = [];

async function sandboxWith(options: SandboxOptions): Promise<RunningSandbox> {
	const sandbox = await startSandbox(options);
	running.push(sandbox);
	return sandbox;
}

afterAll(async () => {
	await Promise.all(running.map(async (sandbox) => await sandbox.stop()));
});
beforeEach(() => resetBudgets());

const statuses = (sandbox: RunningSandbox) =>
	sandbox.control.requests().map((request) => request.status);

describe('429 answers', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await sandboxWith({ dataset: { customFields: 3, leads: 5 } });
	});
	beforeEach(() => sandbox.control.reset());

	it("waits each refusal's own Retry-After, not doubled, then succeeds", async () => {
		sandbox.control.injectFault({ kind: 'rate-limit', count: 2, retryAfterSeconds: 1 });
		const run = await runNodeOnClock(
			{ resource: 'customField', operation: 'getMany', returnAll: true },
			{ baseUrl: sandbox.url, apiKey: sandbox.apiKey },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(statuses(sandbox)).toEqual([429, 429, 200]);
		// 1 s and 1 s, as the service asked: a sleep is never shorter than asked, and a hold no longer.
		expect(run.elapsedMs).toBeGreaterThanOrEqual(2000);
		expect(run.elapsedMs).toBeLessThan(3000);
		expect(run.logs.some((line) => line.includes('refused with 429'))).toBe(true);
		expectNoSecret(run, sandbox.apiKey);
	});

	it('gives up past the maximum wait, saying how long it waited and why', async () => {
		sandbox.control.injectFault({ kind: 'rate-limit', count: 10, retryAfterSeconds: 1 });
		// The maximum fits the first refusal's hold, not the second's.
		const held = retryAfterHoldSeconds(1);
		const run = await runNodeOnClock(
			{
				resource: 'customField',
				operation: 'getMany',
				returnAll: true,
				options: { maxRateLimitWait: held },
			},
			{ baseUrl: sandbox.url, apiKey: sandbox.apiKey },
		);
		const [, waited, maximum] = /^Rate limit still reached after waiting (\d+(?:\.\d)?) s in total \(maximum ([\d.]+) s\)$/.exec(String(run.error?.message)) ?? [];
		expect(Number(maximum)).toBe(held);
		expect(Number(waited)).toBeGreaterThanOrEqual(held);
		expect(String((run.error as { description?: string }).description)).toMatch(
			/refused the request 2 times with 429/,
		);
		expect(statuses(sandbox)).toEqual([429, 429]);
		expectNoSecret(run, sandbox.apiKey);
	});

	it('retries a write refused with 429, which the service did not process, and creates the lead once', async () => {
		sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 1 });
		const before = sandbox.control.leads().length;
		const run = await runNodeOnClock(
			{ resource: 'lead', operation: 'create', name: 'Rita', email: 'rita.429@example.com' },
			{ baseUrl: sandbox.url, apiKey: sandbox.apiKey },
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.control.leads().length).toBe(before + 1);
		expect(statuses(sandbox)).toEqual([429, 201]);
	});
});

describe('waiting before the limit is reached', () => {
	it.each(['epoch-seconds', 'epoch-ms', 'delta-seconds'] as const)(
		'reads X-RateLimit-Reset as %s and walks across windows without one refusal',
		async (format) => {
			const sandbox = await sandboxWith({
				windowSeconds: 1,
				readLimit: 3,
				rateLimitResetFormat: format,
				dataset: { leads: 8 },
			});
			const run = await runNodeOnClock(
				{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1 } },
				{ baseUrl: sandbox.url, apiKey: sandbox.apiKey },
			);
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(8);
			expect(statuses(sandbox).filter((status) => status === 429)).toHaveLength(0);
			expect(run.logs.some((line) => line.includes('budget spent'))).toBe(true);
		},
	);

	it.each([1, 0])(
		'with the credential window at %i s, walks windows announced in whole seconds without one refusal',
		async (rateLimitWindowSeconds) => {
			const sandbox = await sandboxWith({
				windowSeconds: 1,
				readLimit: 3,
				rateLimitResetFormat: 'epoch-seconds',
				dataset: { leads: 10 },
			});
			const run = await runNodeOnClock(
				{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1 } },
				{ baseUrl: sandbox.url, apiKey: sandbox.apiKey, rateLimitWindowSeconds },
			);
			expect(run.error).toBeUndefined();
			expect(
				jsonOf(run.items)
					.map((lead) => lead.id)
					.sort(),
			).toEqual(
				sandbox.control
					.leads()
					.map((lead) => lead.id)
					.sort(),
			);
			expect(statuses(sandbox)).toEqual(new Array(10).fill(200));
		},
	);

	it("paces on the credential's Reads per Window where the service would allow more and sends no rate headers", async () => {
		const sandbox = await sandboxWith({ windowSeconds: 60, readLimit: 200, rateHeaders: 'on-429', dataset: { leads: 6 } });
		const run = await runNodeOnClock(
			{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1 } },
			{ baseUrl: sandbox.url, apiKey: sandbox.apiKey, rateLimitWindowSeconds: 1, readsPerWindow: 2 },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(6);
		// Six pages at two a second (and one more to learn a window's end) cannot all go within the first second.
		expect(run.elapsedMs).toBeGreaterThanOrEqual(1000);
		expect(statuses(sandbox)).toEqual(new Array(6).fill(200));
	});

	it('shares one budget between two executions walking at once with the same key', async () => {
		const sandbox = await sandboxWith({ windowSeconds: 1, readLimit: 3, dataset: { leads: 6 } });
		const connection = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
		const walk = () =>
			runNode(
				{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1 } },
				connection,
			);
		const {
			result: [first, second],
		} = await onControlledClock(async () => await Promise.all([walk(), walk()]));
		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		const expected = sandbox.control
			.leads()
			.map((lead) => lead.id)
			.sort();
		expect(
			jsonOf(first.items)
				.map((lead) => lead.id)
				.sort(),
		).toEqual(expected);
		expect(
			jsonOf(second.items)
				.map((lead) => lead.id)
				.sort(),
		).toEqual(expected);
		expect(sandbox.control.requests()).toHaveLength(12);
		expect(statuses(sandbox).filter((status) => status === 429)).toHaveLength(0);
	});

	it('waits out a window another client spent with the same key, then paces itself without another refusal', async () => {
		const sandbox = await sandboxWith({
			windowSeconds: 2,
			readLimit: 2,
			dataset: { customFields: 3 },
		});
		const other = `${sandbox.url}/api/v1/custom-fields?apiKey=${encodeURIComponent(sandbox.apiKey)}`;
		for (let call = 0; call < 2; call++) await (await fetch(other)).arrayBuffer();
		const run = await runNodeOnClock(
			{ resource: 'customField', operation: 'getMany', returnAll: true, options: { pageSize: 1 } },
			{ baseUrl: sandbox.url, apiKey: sandbox.apiKey },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		const node = statuses(sandbox).slice(2);
		expect(node.filter((status) => status === 429)).toHaveLength(1);
		expect(node.filter((status) => status === 200)).toHaveLength(3);
	});
});
