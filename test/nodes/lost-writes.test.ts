/** Writes other than lead creation whose answer is lost: never repeated blindly, and the user is told what happened. */
import { startSandbox } from '../../sandbox';
import type { RunningSandbox } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport';
import { expectNoSecret, runNode } from './support';

let sandbox: RunningSandbox;
let connection: { baseUrl: string; apiKey: string };

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false, dataset: { leads: 5, routines: 2 } });
	connection = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.control.reset();
	resetBudgets();
});

const description = (error: unknown) =>
	String((error as { description?: unknown })?.description ?? '');
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
	expect(description(run.error)).toContain(`The webhook was created (id ${webhook.id})`);
	expectNoSecret(run, webhook.secret);
	expectNoSecret(run, sandbox.apiKey);
});

it('webhook create: a lost answer before commit says it is safe to run again', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
	const run = await runNode(createWebhook, connection);
	expect(sandbox.control.webhooks()).toHaveLength(0);
	expect(writes()).toHaveLength(1);
	expect(description(run.error)).toMatch(/not created; it is safe to run this item again/);
});

it('webhook delete: a lost answer is checked with a read, and a deletion that happened is reported as done', async () => {
	const created = await runNode(createWebhook, connection);
	const id = String(created.items[0].json.id);
	sandbox.control.injectFault({
		kind: 'drop',
		when: 'after-commit',
		count: 1,
		methods: ['DELETE'],
	});
	const run = await runNode(
		{ resource: 'webhook', operation: 'delete', webhookId: id },
		connection,
	);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ id, deleted: true });
	expect(sandbox.control.webhooks()).toHaveLength(0);
	expect(writes().filter((request) => request.method === 'DELETE')).toHaveLength(1);
});

it('webhook delete: when the lost request did not delete, the item fails and nothing is repeated', async () => {
	const created = await runNode(createWebhook, connection);
	const id = String(created.items[0].json.id);
	sandbox.control.injectFault({
		kind: 'drop',
		when: 'before-commit',
		count: 1,
		methods: ['DELETE'],
	});
	const run = await runNode(
		{ resource: 'webhook', operation: 'delete', webhookId: id },
		connection,
	);
	expect(run.error?.message).toMatch(/The answer to DELETE \/webhooks\/.* was lost/);
	expect(sandbox.control.webhooks()).toHaveLength(1);
	expect(writes().filter((request) => request.method === 'DELETE')).toHaveLength(1);
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
	expect(writes()).toHaveLength(1);
});
