/**
 * Max Rate Limit Wait is the most a call waits out refusals in a workflow: a refusal whose hold does not fit fails
 * at once and is not sent again; one that fits is sat out, and a short Retry-After in a long window is not stretched.
 */
import { allLogLines } from '../../dev/harness';
import { waitFor } from '../e2e/support/waits';
import { expectNoSecret, runNode } from './support';
import { useSandbox } from '../support/sandbox';

// A long window: once a call has been answered, the budget knows the window ends about 30 s later.
const { sandbox, connection } = useSandbox({ windowSeconds: 30, dataset: { customFields: 3 } });

const listCustomFields = (maxRateLimitWait: number) =>
	runNode(
		{ resource: 'customField', operation: 'getMany', returnAll: true, options: { maxRateLimitWait } },
		connection,
	);

it('fails naming the maximum when a refusal asks for a longer wait than Max Rate Limit Wait, and does not send the call again', async () => {
	expect((await listCustomFields(3)).error).toBeUndefined();
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 5 });

	const run = await listCustomFields(3);

	expect(run.error?.message).toMatch(/\(maximum 3 s\)$/);
	expect(String((run.error as { description?: string }).description)).toMatch(/asked to wait \d+(\.\d)? s/);
	// The service's own words of the refusal reach the user.
	expect(String((run.error as { description?: string }).description)).toContain('Service message: Limite de requisições excedido. Tente novamente em 5 segundos.');
	// The refused call was not sent again: one answer before, one refusal now.
	expect(sandbox.control.requests().map((request) => request.status)).toEqual([200, 429]);
	expectNoSecret(run, sandbox.apiKey);
});

it('still retries after the refusal when what the window leaves fits in Max Rate Limit Wait', async () => {
	expect((await listCustomFields(60)).error).toBeUndefined();
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 1 });
	// Only the refusal's own Retry-After (1 s) is waited for, not the rest of the 30 s window the first answer began.

	const run = await listCustomFields(3);

	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(3);
	expect(sandbox.control.requests().map((request) => request.status)).toEqual([200, 429, 200]);
});

it("fails at once, naming an earlier call's refusal, when the key is held longer than Max Rate Limit Wait, and sends nothing", async () => {
	sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 3 });
	const logged = allLogLines.length;
	const held = listCustomFields(10);
	// The node logs the refusal once it has read it (the sandbox notes a 429 as it sends it, earlier).
	await waitFor('the refusal read by the node', () => allLogLines.slice(logged).some((line) => line.includes('refused with 429')), Boolean);

	const run = await listCustomFields(1);

	expect(run.error?.message).toMatch(/\(maximum 1 s\)$/);
	expect(String((run.error as { description?: string }).description)).toMatch(
		/^An earlier call with this key was refused with 429 \(too many requests\) and the service asked to wait [23](\.\d)? s more \(Retry-After\), more than the 1 s left of the maximum, so this call was not sent\./,
	);
	expect((await held).error).toBeUndefined();
	expect(sandbox.control.requests().map((request) => request.status)).toEqual([429, 200]);
});
