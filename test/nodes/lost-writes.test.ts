/**
 * Writes other than lead creation whose answer is lost: never repeated blindly, and the user is told what happened.
 * The slow-commit cases use an Answer Timeout of 1 s against a service that applies the write 2 s after it arrives
 * (production: 60 s and later), or a gateway that answers 504 before the service applies it; see slow-commits.
 */
import type { INodeParameters } from 'n8n-workflow';

import { descriptionOf, expectNoSecret, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 5, routines: 2 } });

const wait = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const writes = () => sandbox.control.requests().filter((request) => request.method !== 'GET');

const createWebhook = {
	resource: 'webhook',
	operation: 'create',
	name: 'Perdido',
	url: 'https://example.com/lost',
	events: ['prospection.won'],
};

it('webhook create: a lost answer after commit is not repeated, and the error names the webhook to delete', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
	const run = await runNode(createWebhook, connection);
	const [webhook] = sandbox.control.webhooks();
	expect(sandbox.control.webhooks()).toHaveLength(1);
	expect(writes()).toHaveLength(1);
	expect(run.error?.message).toBe(
		'The answer to POST /webhooks was lost: the connection was reset',
	);
	expect(descriptionOf(run.error)).toContain(`The webhook was created (id ${webhook.id})`);
	expectNoSecret(run, webhook.secret);
	expectNoSecret(run, sandbox.apiKey);
});

it('webhook create: a lost answer before commit is not repeated, and the error says to check the list before running again', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
	const run = await runNode(createWebhook, connection);
	expect(sandbox.control.webhooks()).toHaveLength(0);
	expect(writes()).toHaveLength(1);
	expect(descriptionOf(run.error)).toMatch(
		/No new webhook with this name and URL is listed yet, but the service may still create it .* Check with Webhook → Get Many before running this item again/,
	);
	expect(descriptionOf(run.error)).not.toMatch(/safe to run/);
});

describe('Webhook Create, slow commit and gateway answers', () => {
	it('a webhook the service creates after the answer timed out: the item fails, not sent again, and one webhook exists', async () => {
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 2000, count: 1, methods: ['POST'] });
		const run = await runNode({ ...createWebhook, options: { timeout: 1 } }, connection);
		expect(run.error?.message).toBe('The answer to POST /webhooks was lost: the request timed out');
		expect(descriptionOf(run.error)).toMatch(/the service may still create it/);
		await wait(1200);
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(writes()).toHaveLength(1);
	});

	it.each([502, 504] as const)(
		'a %i after the commit: the item fails naming the created webhook to delete, not sent again',
		async (status) => {
			sandbox.control.injectFault({ kind: 'status', status, when: 'after-commit', count: 1, methods: ['POST'] });
			const run = await runNode(createWebhook, connection);
			const [webhook] = sandbox.control.webhooks();
			expect(run.error?.message).toBe(`The answer to POST /webhooks was lost: a gateway answered ${status}`);
			expect(descriptionOf(run.error)).toContain(`The webhook was created (id ${webhook.id})`);
			expect(writes()).toHaveLength(1);
			expectNoSecret(run, webhook.secret);
		},
	);
});

it.each([
	['a lost answer is checked with a read, and a deletion that happened is reported as done', 'after-commit', 1],
	['when the lost request did not delete, the delete by id is sent once more and the item succeeds', 'before-commit', 2],
] as const)('webhook delete: %s', async (_, when, deletes) => {
	const created = await runNode(createWebhook, connection);
	const id = String(created.items[0].json.id);
	sandbox.control.injectFault({ kind: 'drop', when, count: 1, methods: ['DELETE'] });
	const run = await runNode({ resource: 'webhook', operation: 'delete', webhookId: id }, connection);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ id, deleted: true });
	expect(sandbox.control.webhooks()).toHaveLength(0);
	expect(writes().filter((request) => request.method === 'DELETE')).toHaveLength(deletes);
});

describe('Webhook Delete, slow commit and gateway answers', () => {
	const deleteOne = async (options: INodeParameters = {}) => {
		const created = await runNode(createWebhook, connection);
		const id = String(created.items[0].json.id);
		return {
			id,
			run: await runNode({ resource: 'webhook', operation: 'delete', webhookId: id, options }, connection),
		};
	};

	it('a delete the service applies after the answer timed out: sent once more, and the 404 of the second counts as deleted', async () => {
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 1200, count: 1, methods: ['DELETE'] });
		const { id, run } = await deleteOne({ timeout: 1 });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id, deleted: true });
		await wait(400);
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(writes().filter((request) => request.method === 'DELETE')).toHaveLength(2);
	});

	it('a 504 after the commit: a read shows it gone, the item succeeds, nothing sent again', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 504, when: 'after-commit', count: 1, methods: ['DELETE'] });
		const { id, run } = await deleteOne();
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id, deleted: true });
		expect(writes().filter((request) => request.method === 'DELETE')).toHaveLength(1);
	});

	it('lost twice while still listed: the item fails saying the webhook may still be deleted', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 2, methods: ['DELETE'] });
		const { run } = await deleteOne();
		expect(run.error?.message).toMatch(/^The answer to DELETE \/webhooks\/.* was lost/);
		expect(descriptionOf(run.error)).toMatch(/sent twice and the answer was lost both times; the webhook is still listed/);
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(writes().filter((request) => request.method === 'DELETE')).toHaveLength(2);
	});
});

it('routine addLead: a lost answer is reported per item and not sent again', async () => {
	const routine = sandbox.control.routines()[0];
	const lead = sandbox.control.leads()[0];
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
	const run = await runNode(
		{
			resource: 'routine',
			operation: 'addLead',
			routineId: { __rl: true, mode: 'id', value: routine.id },
			leadId: lead.id,
		},
		{ ...connection, continueOnFail: true },
	);
	expect(run.items).toHaveLength(1);
	expect(String(run.items[0].json.error)).toMatch(
		/The answer to POST \/routines\/.*\/lead was lost/,
	);
	expect(String(run.items[0].json.description)).toMatch(
		/may or may not have applied this change, so it was not sent again/,
	);
	expect(String(run.items[0].json.description)).toMatch(/The lead may have been added .* before running this item again/);
	// Whether the service added it is not known: never "refused", which would tell a workflow to send it again.
	expect(run.items[0].json.writeOutcome).toBe('unknown');
	expect(writes()).toHaveLength(1);
});

describe('Routine Add Lead, slow commit and gateway answers', () => {
	const routineId = () => sandbox.control.routines()[0].id;
	const adds = () => writes().filter((request) => request.path.endsWith('/lead'));
	let leadId = '';
	beforeEach(async () => {
		// A new lead, in no routine yet (every seeded lead is in every routine).
		const created = await runNode(
			{ resource: 'lead', operation: 'create', email: 'nova.rotina@example.com' },
			connection,
		);
		leadId = String(created.items[0].json.id);
	});
	const addLead = (options: INodeParameters = {}) => ({
		resource: 'routine',
		operation: 'addLead',
		routineId: { __rl: true, mode: 'id', value: routineId() },
		leadId,
		options,
	});
	const inRoutine = () =>
		sandbox.control.leads().find((lead) => lead.id === leadId)!.routineIds.includes(routineId());

	it('an add the service applies after the answer timed out: the item fails saying the lead may have been added, not sent again', async () => {
		expect(inRoutine()).toBe(false);
		sandbox.control.injectFault({ kind: 'slow-commit', commitAfterMs: 2000, count: 1, methods: ['POST'] });
		const run = await runNode(addLead({ timeout: 1 }), connection);
		expect(run.error?.message).toMatch(/^The answer to POST \/routines\/.*\/lead was lost: the request timed out$/);
		expect(descriptionOf(run.error)).toMatch(/The lead may have been added \(or may still be added by a slow service\)/);
		await wait(1200);
		expect(inRoutine()).toBe(true);
		expect(adds()).toHaveLength(1);
	});

	it('a 504 after the commit: the item fails saying the lead may have been added, not sent again', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 504, when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await runNode(addLead(), connection);
		expect(run.error?.message).toMatch(/^The answer to POST \/routines\/.*\/lead was lost: a gateway answered 504$/);
		expect(inRoutine()).toBe(true);
		expect(adds()).toHaveLength(1);
	});
});
