/**
 * What every write's error says about the write, as a workflow sees it under Continue On Fail: `unknown` (it may
 * have been applied: every 5xx, a lost answer, a 2xx that is not the write's answer), `notSent` (it never left) or
 * `refused` (answered that it was not applied). An unknown write is never sent again and never reported as done.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Fault } from '../../sandbox/types';
import { everythingVisible, expectNoSecret, jsonOf, runNode } from './support';
import { closedUrl } from '../support/closed-port';
import { useSandbox } from '../support/sandbox';
import { asCaller, refuseConnections } from '../faults/support/network';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 10, prospections: 5 } });

const MAY_OR_MAY_NOT = 'The service may or may not have applied this change, so it was not sent again.';

const writes = () => sandbox.control.requests().filter((request) => request.kind === 'write');

function addLead(): INodeParameters {
	const routine = sandbox.control.routines()[0];
	return {
		resource: 'routine',
		operation: 'addLead',
		routineId: { __rl: true, mode: 'id', value: routine.id },
		leadId: sandbox.control.leads()[0].id,
	};
}

const createWebhook: INodeParameters = {
	resource: 'webhook',
	operation: 'create',
	name: 'Ganhos',
	url: 'https://example.com/ganhos',
};

async function errorItem(parameters: INodeParameters): Promise<IDataObject> {
	const run = await runNode(parameters, { ...connection, continueOnFail: true });
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(1);
	expectNoSecret(run, sandbox.apiKey);
	return run.items[0].json;
}

describe('a 5xx after the commit', () => {
	it.each([500, 503, 524])(
		'Routine Add Lead answered %i after its commit fails as unknown, says it may have been applied, and is not sent again',
		async (status) => {
			sandbox.control.injectFault({ kind: 'status', status, when: 'after-commit', count: 1, pathPrefix: '/routines' });
			const item = await errorItem(addLead());

			expect(item.writeOutcome).toBe('unknown');
			expect(item.error).toMatch(
				new RegExp(`^The service answered ${status} to POST /routines/.+/lead: it may or may not have applied this change, and it was not sent again$`),
			);
			expect(String(item.description)).toContain(MAY_OR_MAY_NOT);
			expect(String(item.error)).not.toMatch(/failed to process/);
			expect(item.added).toBeUndefined();
			expect(writes()).toHaveLength(1);
		},
	);

	it('Webhook Create answered 500 after its commit fails as unknown and is not sent again: one webhook exists', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 500, when: 'after-commit', count: 1, methods: ['POST'] });
		const item = await errorItem(createWebhook);

		expect(item.writeOutcome).toBe('unknown');
		expect(item.error).toBe(
			'The service answered 500 to POST /webhooks: it may or may not have applied this change, and it was not sent again',
		);
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(writes()).toHaveLength(1);
	});

	it('Webhook Delete answered 503 after its commit is checked with a read: the deletion is reported as done, one DELETE', async () => {
		const created = await runNode(createWebhook, connection);
		const id = String(created.items[0].json.id);
		sandbox.control.injectFault({ kind: 'status', status: 503, when: 'after-commit', count: 1, methods: ['DELETE'] });
		const run = await runNode({ resource: 'webhook', operation: 'delete', webhookId: id }, connection);

		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id, deleted: true });
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(writes().filter((request) => request.method === 'DELETE')).toHaveLength(1);
	});

	it('Lead Create answered 500 after its commit is not sent again: the lead it sent is found, one lead', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 500, when: 'after-commit', count: 1, methods: ['POST'] });
		const run = await runNode(
			{ resource: 'lead', operation: 'create', name: 'Joana Quinhentos', email: 'joana.500@example.com', options: { lostLeadSearch: 2 } },
			connection,
		);

		const created = sandbox.control.leads().filter((lead) => lead.emails.some((email) => email.value === 'joana.500@example.com'));
		expect(created).toHaveLength(1);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.id).toBe(created[0].id);
		expect(writes()).toHaveLength(1);
	});
});

describe('a 2xx that is not the answer of the write', () => {
	it.each(['before-commit', 'after-commit'] as const)(
		'Routine Add Lead answered 200 with an HTML page (%s) fails as unknown, never as added, without quoting the page',
		async (when) => {
			sandbox.control.injectFault({ kind: 'malformed', when, count: 1, methods: ['POST'] });
			const run = await runNode(addLead(), { ...connection, continueOnFail: true });
			const item = run.items[0].json;

			expect(item.writeOutcome).toBe('unknown');
			expect(item.error).toMatch(
				/^The service answered 200 to POST \/routines\/.+\/lead with an HTML page: it may or may not have applied this change, and it was not sent again$/,
			);
			expect(item.added).toBeUndefined();
			expect(everythingVisible(run)).not.toMatch(/manutenção|DOCTYPE/);
			expect(writes()).toHaveLength(1);
		},
	);

	it('Webhook Create answered 201 with a JSON object without an id fails as unknown: the record was not in the answer', async () => {
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', status: 201, body: '{"ok":true}', count: 1, methods: ['POST'] });
		const item = await errorItem(createWebhook);

		expect(item.writeOutcome).toBe('unknown');
		expect(item.error).toBe(
			'The service answered 201 to POST /webhooks without the created record: it may have been created, and it was not sent again',
		);
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(writes()).toHaveLength(1);
	});

	it('Routine Add Lead answered 200 with an empty body or a JSON object is done', async () => {
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', body: '', count: 1, methods: ['POST'] });
		const empty = await runNode(addLead(), connection);
		expect(empty.error).toBeUndefined();
		expect(empty.items[0].json).toMatchObject({ added: true });

		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', body: '{"queued":true}', count: 1, methods: ['POST'] });
		const object = await runNode(addLead(), connection);
		expect(object.error).toBeUndefined();
		expect(object.items[0].json).toEqual({ queued: true });
	});

	it('Routine Add Lead answered 200 with a JSON list fails as unknown', async () => {
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', body: '[]', count: 1, methods: ['POST'] });
		const item = await errorItem(addLead());
		expect(item.writeOutcome).toBe('unknown');
		expect(item.error).toMatch(/^The service answered 200 to POST \/routines\/.+\/lead with a JSON list: it may or may not have applied this change, and it was not sent again$/);
	});

	it.each([
		['the record under data', '{"data":{"id":"whk_wrapped","name":"Ganhos"}}', 'whk_wrapped'],
		['a numeric id', '{"id":42,"name":"Ganhos"}', 42],
	])('Webhook Create answered with %s is taken as created', async (_what, body, id) => {
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', status: 201, body, count: 1, methods: ['POST'] });
		const run = await runNode(createWebhook, connection);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.id).toBe(id);
	});

	it.each([
		['an empty id', '{"id":"  ","name":"Ganhos"}'],
		['a list under data', '{"data":[{"id":"whk_1"}]}'],
		['an id that is an object', '{"id":{"value":"whk_1"}}'],
	])('Webhook Create answered with %s fails as unknown', async (_what, body) => {
		sandbox.control.injectFault({ kind: 'malformed', when: 'after-commit', status: 201, body, count: 1, methods: ['POST'] });
		const item = await errorItem(createWebhook);
		expect(item.writeOutcome).toBe('unknown');
		expect(item.error).toMatch(/^The service answered 201 to POST \/webhooks without the created record/);
		expect(String(item.description)).toMatch(/^The answer was a JSON object without an id, not the created record\.$/m);
	});

	it('Lead Create answered 200 with an HTML page before its commit reports no lead as created', async () => {
		sandbox.control.injectFault({ kind: 'malformed', count: 1, methods: ['POST'] });
		const run = await runNode(
			{ resource: 'lead', operation: 'create', email: 'joana.html@example.com', options: { lostLeadSearch: 0 } },
			{ ...connection, continueOnFail: true },
		);

		expect(run.items).toHaveLength(1);
		expect(run.items[0].json.id).toBeUndefined();
		expect(run.items[0].json.writeOutcome).toBe('unknown');
		expect(String(run.items[0].json.description)).toContain('The service answered 200 to POST /leads with an HTML page');
		expect(writes()).toHaveLength(1);
		expect(sandbox.control.leads()).toHaveLength(10);
	});
});

describe('a lost answer, a refusal and a call that never left', () => {
	it('Routine Add Lead whose connection drops after the commit fails as unknown and is not sent again', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'after-commit', count: 1, methods: ['POST'] });
		const item = await errorItem(addLead());

		expect(item.writeOutcome).toBe('unknown');
		expect(item.error).toMatch(/^The answer to POST \/routines\/.+\/lead was lost: /);
		expect(String(item.description)).toContain(MAY_OR_MAY_NOT);
		expect(writes()).toHaveLength(1);
	});

	it('Routine Add Lead answered 404 fails as refused', async () => {
		const item = await errorItem({ ...addLead(), routineId: { __rl: true, mode: 'id', value: 'rot_missing' } });

		expect(item.writeOutcome).toBe('refused');
		expect(item.error).toMatch(/^Routine "rot_missing".* was not found \(404\)$/);
	});

	it('Routine Add Lead refused with 429 longer than its wait allows fails as refused', async () => {
		sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 30 });
		const item = await errorItem({ ...addLead(), options: { maxRateLimitWait: 1 } });

		expect(item.writeOutcome).toBe('refused');
		expect(item.httpCode).toBe('429');
		expect(sandbox.control.requests().map((request) => request.status)).toEqual([429]);
	});

	it("Routine Add Lead held back by another call's 429 longer than its wait allows fails as not sent", async () => {
		sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 30 });
		const leads = sandbox.control.leads();
		const run = await runNode(
			{ ...addLead(), leadId: '={{ $json.leadId }}', options: { maxRateLimitWait: 1 } },
			{ ...connection, continueOnFail: true, inputItems: [{ leadId: leads[0].id }, { leadId: leads[1].id }] },
		);

		expect(run.items[0].json).toMatchObject({ writeOutcome: 'refused', httpCode: '429' });
		expect(run.items[1].json).toMatchObject({ writeOutcome: 'notSent', httpCode: '429' });
		expect(String(run.items[1].json.description)).toMatch(/so this call was not sent/);
		expect(writes()).toHaveLength(1);
	});

	it('Routine Add Lead to a service that refuses the connection fails as not sent, without an HTTP status', async () => {
		const run = await runNode(addLead(), { baseUrl: await closedUrl(), apiKey: sandbox.apiKey, continueOnFail: true });

		expect(run.items[0].json.writeOutcome).toBe('notSent');
		expect(run.items[0].json.error).toMatch(/the service refused the connection/);
		// No answer, no status: the connection's code is in the words, never in httpCode.
		expect(run.items[0].json).not.toHaveProperty('httpCode');
	});

	it.each<[string, () => INodeParameters]>([
		['Routine Add Lead', addLead],
		['Webhook Create', () => createWebhook],
		['Lead Create', () => ({ resource: 'lead', operation: 'create', name: 'Rita Religada', email: 'rita.religada@example.com' })],
	])('%s whose first connection is refused (a restart) is sent once more and applied once', async (_, parameters) => {
		// Only the first write's connection is refused; the service never sees it.
		refuseConnections((request) => request.kind === 'write' && request.nth === 0);
		try {
			const run = await asCaller('refused once', async () => await runNode(parameters(), connection));
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(1);
			expect(writes()).toHaveLength(1);
			expect(writes()[0].applied).toBeDefined();
		} finally {
			refuseConnections(undefined);
		}
	});

	// The search runs before anything is sent: whatever stops it, the lead was not created, nor refused.
	it.each<[string, Fault, string]>([
		['answered 400', { kind: 'status', status: 400, count: 1, methods: ['GET'] }, '400'],
		['refused with 429 longer than its wait allows', { kind: 'rate-limit', count: 1, retryAfterSeconds: 30 }, '429'],
	])('Lead Create with Skip If Exists whose search is %s fails as not sent, and sends nothing', async (_how, fault, httpCode) => {
		sandbox.control.injectFault(fault);
		const item = await errorItem({
			resource: 'lead',
			operation: 'create',
			email: 'busca.falhou@example.com',
			options: { skipIfExists: true, maxRateLimitWait: 1 },
		});

		expect(item).toMatchObject({ writeOutcome: 'notSent', httpCode });
		expect(String(item.description)).toMatch(
			/^The lead was not created: Skip If a Lead With This Contact Exists could not search for busca\.falhou@example\.com \(GET \/leads\)\. Run this item again once the service answers\.$/m,
		);
		expect(writes()).toHaveLength(0);
	});

	it.each([
		['Lead Create', () => ({ resource: 'lead', operation: 'create', email: 'sem.credencial@example.com' })],
		['Routine Add Lead', addLead],
		['Webhook Create', () => createWebhook],
		['Webhook Delete', () => ({ resource: 'webhook', operation: 'delete', webhookId: 'whk_1' })],
	])('%s without its credential (deleted, or never set) fails as not sent, and sends nothing', async (_write, parameters) => {
		const run = await runNode(parameters() as INodeParameters, { ...connection, continueOnFail: true, withoutCredential: true });
		expect(jsonOf(run.items)).toEqual([
			expect.objectContaining({ error: 'No test credentials of type "prospectingApi" were given to this run', writeOutcome: 'notSent' }),
		]);
		expect(sandbox.control.requests()).toHaveLength(0);
	});
});
