/**
 * 429 storms: every request refused for whole windows, through the real engine against the
 * sandbox. Waited out within Max Rate Limit Wait, with nothing lost or duplicated; beyond it the
 * item fails saying how long it waited and why. A Retry-After of the whole 60 s window is sat out
 * in full (the default maximum is 300 s); with a smaller maximum the item fails at once, saying the
 * asked wait would exceed the maximum, instead of sitting it out. The waits run on a controlled clock
 * shared by the node and the sandbox (dev/harness/clock.ts): the same waits, without the real seconds.
 */
import { descriptionOf, expectNoSecret, jsonOf, retryAfterHoldSeconds, runNodeOnClock } from '../nodes/support';
import { useSandbox } from '../support/sandbox';

// One-second windows: a refusal of two windows costs seconds, not minutes.
const { sandbox, connection } = useSandbox({ windowSeconds: 1, readLimit: 50, writeLimit: 50, dataset: { leads: 5, customFields: 4 } });

const statuses = () => sandbox.control.requests().map((request) => request.status);

it('waits out two whole windows of refusals on a page walk and returns every record exactly once', async () => {
	sandbox.control.injectFault({ kind: 'rate-limit', count: 2, retryAfterSeconds: 1 });
	const run = await runNodeOnClock(
		{
			resource: 'customField',
			operation: 'getMany',
			returnAll: true,
			options: { pageSize: 2, maxRateLimitWait: 30 },
		},
		connection,
	);
	expect(run.error).toBeUndefined();
	const ids = jsonOf(run.items).map((field) => field.id);
	expect(new Set(ids).size).toBe(4);
	expect(ids).toHaveLength(4);
	// Both refusals hit the first page; the walk then went on without another.
	expect(statuses()).toEqual([429, 429, 200, 200]);
	const waits = run.logs.filter((line) => line.includes('refused with 429'));
	expect(waits).toHaveLength(2);
	// Each refusal's own Retry-After, 1 s, not doubled: two whole one-second windows were sat out.
	expect(waits[0]).toMatch(/waiting 1000 ms/);
	expect(waits[1]).toMatch(/waiting 1000 ms/);
	expectNoSecret(run, sandbox.apiKey);
});

it('a write storm over several items creates each lead exactly once, paired with its input', async () => {
	sandbox.control.injectFault({ kind: 'rate-limit', count: 2, retryAfterSeconds: 1 });
	const before = sandbox.control.leads().length;
	const inputItems = [0, 1, 2].map((index) => ({ email: `storm${index}@example.com` }));
	const run = await runNodeOnClock(
		{ resource: 'lead', operation: 'create', email: '={{ $json.email }}', options: { maxRateLimitWait: 30 } },
		{ ...connection, inputItems },
	);
	expect(run.error).toBeUndefined();
	expect(sandbox.control.leads()).toHaveLength(before + 3);
	expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	run.items.forEach((item, index) => {
		expect((item.json.emails as Array<{ value: string }>)[0].value).toBe(`storm${index}@example.com`);
	});
	const posts = sandbox.control.requests().filter((request) => request.method === 'POST');
	expect(posts.map((request) => request.status)).toEqual([429, 429, 201, 201, 201]);
});

it('beyond the maximum the item fails naming the total wait, the refusals and the reason; the next item goes on', async () => {
	// Two refusals of 1 s each: the maximum, half a second past the first's hold, counts from it, so the second's hold
	// would end past it.
	sandbox.control.injectFault({ kind: 'rate-limit', count: 2, retryAfterSeconds: 1 });
	const held = retryAfterHoldSeconds(1);
	const run = await runNodeOnClock(
		{ resource: 'customField', operation: 'getMany', returnAll: true, options: { maxRateLimitWait: held + 0.5 } },
		{ ...connection, continueOnFail: true, inputItems: [{}, {}] },
	);
	expect(run.error).toBeUndefined();
	const [failed, ...rest] = run.items;
	expect(failed.pairedItem).toEqual({ item: 0 });
	// The first hold, then the second refusal's does not fit: the item fails up to 0.4 s after the first, shown to a tenth.
	const [, waited, maximum] = /^Rate limit still reached after waiting (\d+(?:\.\d)?) s in total \(maximum ([\d.]+) s\)$/.exec(String(failed.json.error)) ?? [];
	expect(Number(maximum)).toBe(held + 0.5);
	expect(Number(waited)).toBeGreaterThanOrEqual(held);
	expect(Number(waited)).toBeLessThanOrEqual(held + 0.4);
	expect(String(failed.json.description)).toMatch(/refused the request 2 times with 429 \(too many requests\)/);
	expect(String(failed.json.description)).toMatch(/Raise "Max Rate Limit Wait"/);
	expect(String(failed.json.description)).toMatch(/item 0, GET \/custom-fields/);
	expect(failed.json.httpCode).toBe('429');
	// The storm is over for the second item: it sits out the key's hold and returns every field.
	expect(rest).toHaveLength(4);
	expect(rest.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 1)).toBe(true);
	expectNoSecret(run, sandbox.apiKey);
});

it('Retry-After 60 s with a smaller maximum fails at once, saying the asked wait exceeds the maximum', async () => {
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 60 });
	const run = await runNodeOnClock(
		{ resource: 'webhook', operation: 'getMany', returnAll: true, options: { maxRateLimitWait: 20 } },
		connection,
	);
	expect(run.error?.message).toBe('Rate limit still reached after waiting 0 s in total (maximum 20 s)');
	expect(descriptionOf(run.error)).toMatch(
		new RegExp(`asked to wait ${retryAfterHoldSeconds(60)} s \\(Retry-After\\), more than the 20 s left of the maximum`),
	);
	expect(descriptionOf(run.error)).toMatch(/refused the request 1 time with 429/);
	expect(statuses()).toEqual([429]);
	// It did not sit out the 60 s nor the 20 s.
	expect(run.elapsedMs).toBeLessThan(20_000);
	expectNoSecret(run, sandbox.apiKey);
});

it('a write refused with Retry-After beyond the maximum is not sent again and creates nothing', async () => {
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 60 });
	const before = sandbox.control.leads().length;
	const run = await runNodeOnClock(
		{ resource: 'lead', operation: 'create', email: 'later@example.com', options: { maxRateLimitWait: 5 } },
		connection,
	);
	expect(run.error?.message).toMatch(/^Rate limit still reached after waiting 0 s in total \(maximum 5 s\)$/);
	expect(sandbox.control.leads()).toHaveLength(before);
	expect(statuses()).toEqual([429]);
});

it('after one call was told to wait 60 s, the next items with a smaller maximum fail at once without a request', async () => {
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 60 });
	const run = await runNodeOnClock(
		{ resource: 'customField', operation: 'getMany', returnAll: true, options: { maxRateLimitWait: 20 } },
		{ ...connection, continueOnFail: true, inputItems: [{}, {}, {}] },
	);
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(String(run.items[0].json.description)).toMatch(/refused the request 1 time with 429/);
	for (const item of run.items.slice(1)) {
		expect(item.json.error).toBe('Rate limit still reached after waiting 0 s in total (maximum 20 s)');
		expect(String(item.json.description)).toMatch(
			/An earlier call with this key was refused with 429 \(too many requests\) and the service asked to wait (59|60|61)(\.\d)? s more \(Retry-After\), more than the 20 s left of the maximum, so this call was not sent/,
		);
	}
	// One request in all: the later items sent nothing.
	expect(statuses()).toEqual([429]);
	expect(run.elapsedMs).toBeLessThan(20_000);
});

it('sits out a Retry-After of the whole 60 s window within the default maximum, then reads the page', async () => {
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 60 });
	const run = await runNodeOnClock(
		{ resource: 'customField', operation: 'getMany', returnAll: true, options: { pageSize: 10 } },
		connection,
	);
	expect(run.error).toBeUndefined();
	expect(jsonOf(run.items)).toHaveLength(4);
	expect(statuses()).toEqual([429, 200]);
	// It waited as the service said rather than asking again early (no second 429, and at least the minute).
	expect(run.logs.filter((line) => line.includes('refused with 429'))[0]).toMatch(/waiting 60000 ms/);
	expect(run.elapsedMs).toBeGreaterThanOrEqual(60_000);
	const [refused, read] = sandbox.control.requests();
	expect(Date.parse(read.at) - Date.parse(refused.at)).toBeGreaterThanOrEqual(60_000);
	expectNoSecret(run, sandbox.apiKey);
});
