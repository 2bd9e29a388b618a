/**
 * Dry Run and safe manual runs: every write operation in every mode, run through n8n's engine against the
 * sandbox, whose request log shows what really reached the service.
 */
import type { IDataObject, INode, WorkflowExecuteMode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ProspectingApi } from '../../credentials/ProspectingApi.credentials';
import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';

import { PROSPECTING_NODE_TYPE } from '../../dev/harness';
import { nodeTypes } from '../../dev/harness/node-types';
import { expectNoSecret, NODE_NAME, runNode } from './support';
import type { NodeRun, RunOptions } from './support';
import { useSandbox } from '../support/sandbox';
import { existingWebhook } from '../support/service';
import { theFourWrites } from '../support/writes';

const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 20 } });

/** A manual or production run of the node with the credential's Writes in Manual Runs as given. */
const run = async (parameters: INode['parameters'], options: Pick<RunOptions, 'mode' | 'manualWrites' | 'inputItems' | 'continueOnFail'>) =>
	await runNode(parameters, { ...connection, ...options });

const writes = () => sandbox.control.requests().filter((request) => request.kind === 'write');

function hintsOf(result: NodeRun): string[] {
	const runs = result.run.data.resultData.runData[NODE_NAME] ?? [];
	return runs.flatMap((task) => (task.hints ?? []).map((hint) => String(hint.message)));
}

const cases = theFourWrites(() => sandbox);

/** Writes recorded since the case was prepared (the delete case creates its webhook first). */
let writesBefore = 0;
const newWrites = () => writes().slice(writesBefore);

describe.each(cases)('$name', (write) => {
	it('manual run, credential on Dry Run: nothing is written, the output shows the would-be request', async () => {
		const { parameters, path, body } = await write.prepare();
		writesBefore = writes().length;
		const result = await run(parameters, { mode: 'manual', manualWrites: 'dryRun' });
		expect(result.error).toBeUndefined();
		expect(newWrites()).toEqual([]);
		expect(write.written(parameters)).toBe(false);
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json).toMatchObject({ dryRun: true, written: false, operation: write.name });
		expect(String(json.message)).toMatch(/^Dry run: nothing was written/);
		expect(json.request).toEqual({
			method: write.method,
			url: `${sandbox.url}/api/v1${path}`,
			path,
			query: {},
			body,
		});
		expect(hintsOf(result).join('\n')).toMatch(/Dry run: nothing was written to the service/);
		expectNoSecret(result, sandbox.apiKey);
	});

	it('manual run, credential saved without the setting: n8n applies the default, Dry Run', async () => {
		const { parameters } = await write.prepare();
		writesBefore = writes().length;
		const result = await run(parameters, { mode: 'manual', manualWrites: 'n8n default' });
		expect(result.error).toBeUndefined();
		expect(newWrites()).toEqual([]);
		expect(result.items[0].json).toMatchObject({ dryRun: true, written: false });
	});

	it('manual run, credential on Stop With Error: the item fails, says how to allow it, sends nothing', async () => {
		const { parameters, path } = await write.prepare();
		writesBefore = writes().length;
		const result = await run(parameters, { mode: 'manual', manualWrites: 'ask' });
		expect(result.error?.message).toBe(
			`${write.name} would write to production: ${write.method} ${path} changes the account's real data, and the service has no test environment. Nothing was sent (item 0)`,
		);
		const description = String((result.error as { description?: string }).description);
		expect(description).toMatch(/"Writes in Manual Runs" is "Stop With Error"/);
		expect(description).toMatch(/"Dry Run" to "Always Send"/);
		expect(description).toMatch(/"Writes in Manual Runs" to "Send to Production"/);
		expect(newWrites()).toEqual([]);
		expect(write.written(parameters)).toBe(false);
		expectNoSecret(result, sandbox.apiKey);
	});

	it('manual run, credential on Send: the write reaches the service', async () => {
		const { parameters } = await write.prepare();
		writesBefore = writes().length;
		const result = await run(parameters, { mode: 'manual', manualWrites: 'send' });
		expect(result.error).toBeUndefined();
		expect(newWrites()).toHaveLength(1);
		expect(write.written(parameters)).toBe(true);
		expect(result.items[0].json.dryRun).toBeUndefined();
		expect(hintsOf(result)).toEqual([]);
	});

	it.each(['trigger', 'webhook', 'chat', 'retry', 'integrated'] as WorkflowExecuteMode[])(
		'active workflow (%s), credential on Dry Run: writes for real',
		async (mode) => {
			const { parameters } = await write.prepare();
			writesBefore = writes().length;
			const result = await run(parameters, { mode, manualWrites: 'dryRun' });
			expect(result.error).toBeUndefined();
			expect(newWrites()).toHaveLength(1);
			expect(write.written(parameters)).toBe(true);
			expect(result.items[0].json.dryRun).toBeUndefined();
		},
	);

	it('node Dry Run "Always Dry Run" keeps an active workflow from writing', async () => {
		const { parameters } = await write.prepare();
		writesBefore = writes().length;
		const result = await run(
			{ ...parameters, dryRun: 'always' },
			{ mode: 'trigger', manualWrites: 'send' },
		);
		expect(result.error).toBeUndefined();
		expect(newWrites()).toEqual([]);
		expect(write.written(parameters)).toBe(false);
		expect(result.items[0].json).toMatchObject({ dryRun: true, written: false });
		expect(String(result.items[0].json.message)).toMatch(/"Always Dry Run"/);
	});

	it('node Dry Run "Always Send" writes from a manual run even when the credential says Ask', async () => {
		const { parameters } = await write.prepare();
		writesBefore = writes().length;
		const result = await run(
			{ ...parameters, dryRun: 'never' },
			{ mode: 'manual', manualWrites: 'ask' },
		);
		expect(result.error).toBeUndefined();
		expect(newWrites()).toHaveLength(1);
		expect(write.written(parameters)).toBe(true);
	});

	it('evaluation runs follow the credential like manual runs', async () => {
		const { parameters } = await write.prepare();
		writesBefore = writes().length;
		const result = await run(parameters, { mode: 'evaluation', manualWrites: 'dryRun' });
		expect(result.error).toBeUndefined();
		expect(newWrites()).toEqual([]);
		expect(result.items[0].json).toMatchObject({ dryRun: true });
	});
});

describe('Lead Create details', () => {
	it('Skip If Exists still searches for real and a dry run returns the existing lead as the service would', async () => {
		const existing = sandbox.control.leads().filter((lead) => lead.emails.length > 0)[2];
		const email = existing.emails[0].value;
		const result = await run(
			{ resource: 'lead', operation: 'create', email, options: { skipIfExists: true } },
			{ mode: 'manual', manualWrites: 'dryRun' },
		);
		expect(result.error).toBeUndefined();
		const requests = sandbox.control.requests();
		expect(requests.filter((request) => request.kind === 'read').length).toBeGreaterThan(0);
		expect(writes()).toEqual([]);
		const json = result.items[0].json;
		expect(json).toMatchObject({ dryRun: true, written: false, operation: 'Lead Create', request: null });
		expect((json.wouldReturn as IDataObject).id).toBe(existing.id);
		expect(String(json.message)).toContain(`exists (id ${existing.id})`);
	});

	it('the would-be create carries only the fields given: no empty name or company, no empty contact list', async () => {
		const result = await run(
			{ resource: 'lead', operation: 'create', phone: '+55 11 3333-4444' },
			{ mode: 'manual', manualWrites: 'dryRun' },
		);
		expect((result.items[0].json.request as IDataObject).body).toEqual({ phones: [{ value: '+55 11 3333-4444', label: 'Principal' }] });
	});

	it('contacts at the edges of what the node accepts are sent: a 254-character e-mail, 6 and 20 digits, a 40-character phone', async () => {
		const email = `${'a'.repeat(242)}@example.com`;
		const wide = `123456${' '.repeat(33)}7`;
		const result = await run(
			{ resource: 'lead', operation: 'create', email, phone: '123-456', additionalFields: { mobile: '1'.repeat(20), phones: { values: [{ value: wide }] } } },
			{ mode: 'manual', manualWrites: 'dryRun' },
		);
		expect(result.error).toBeUndefined();
		const body = (result.items[0].json.request as IDataObject).body as IDataObject;
		const values = (list: unknown) => (list as IDataObject[]).map((item) => item.value);
		expect([email.length, wide.length]).toEqual([254, 40]);
		expect([values(body.emails), values(body.phones), values(body.mobiles)]).toEqual([[email], ['123-456', wide], ['1'.repeat(20)]]);
	});

	it('Skip If Exists with Stop With Error: a found lead is returned as for real, since nothing would be written', async () => {
		const existing = sandbox.control.leads().filter((lead) => lead.emails.length > 0)[1];
		const result = await run(
			{ resource: 'lead', operation: 'create', email: existing.emails[0].value, options: { skipIfExists: true } },
			{ mode: 'manual', manualWrites: 'ask' },
		);
		expect(result.error).toBeUndefined();
		expect(writes()).toEqual([]);
		expect(result.items[0].json.id).toBe(existing.id);
		expect(result.items[0].json.dryRun).toBeUndefined();
	});

	it('Skip If Exists without a match: the search runs, then the create is only shown', async () => {
		const result = await run(
			{
				resource: 'lead',
				operation: 'create',
				email: 'nobody.here@example.com',
				options: { skipIfExists: true },
			},
			{ mode: 'manual', manualWrites: 'dryRun' },
		);
		expect(result.error).toBeUndefined();
		expect(sandbox.control.requests().map((request) => request.kind)).toContain('read');
		expect(writes()).toEqual([]);
		expect(result.items[0].json.request).toMatchObject({ method: 'POST', path: '/leads' });
	});

	it('bad input fails with the same item and field error in a dry run as for real', async () => {
		const bad = { resource: 'lead', operation: 'create', name: 'Sem Contato' };
		const dry = await run(bad, { mode: 'manual', manualWrites: 'dryRun' });
		const real = await run(bad, { mode: 'trigger', manualWrites: 'dryRun' });
		expect(dry.error?.message).toBeDefined();
		expect(dry.error?.message).toBe(real.error?.message);
		expect(dry.error?.message).toMatch(/email \/ phone \/ mobile: .* \(item 0\)/);
		expect(sandbox.control.requests()).toEqual([]);
	});

	it('many items with expressions and Continue On Fail: each item is checked, shown or failed on its own', async () => {
		const result = await run(
			{ resource: 'lead', operation: 'create', name: '={{ $json.name }}', email: '={{ $json.email }}' },
			{
				mode: 'manual',
				manualWrites: 'dryRun',
				continueOnFail: true,
				inputItems: [
					{ name: 'Um', email: 'um@example.com' },
					{ name: 'Dois' },
					{ name: 'Três', email: 'tres@example.com' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(writes()).toEqual([]);
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.request).toMatchObject({
			body: { name: 'Um', emails: [{ value: 'um@example.com', label: 'Principal' }] },
		});
		expect(result.items[1].json.error).toMatch(/email \/ phone \/ mobile: .* \(item 1\)/);
		expect(result.items[2].json.request).toMatchObject({ body: { name: 'Três' } });
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		// One hint for the node run, not one per item.
		expect(hintsOf(result)).toHaveLength(1);
	});

	it('Dry Run set by an expression per item, and a wrong value names the field', async () => {
		const result = await run(
			{ resource: 'lead', operation: 'create', email: '={{ $json.email }}', dryRun: '={{ $json.dry }}' },
			{
				mode: 'trigger',
				manualWrites: 'send',
				continueOnFail: true,
				inputItems: [
					{ email: 'a.expr@example.com', dry: 'always' },
					{ email: 'b.expr@example.com', dry: 'perhaps' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(writes()).toEqual([]);
		expect(result.items[0].json.dryRun).toBe(true);
		expect(result.items[1].json.error).toMatch(/^dryRun: "perhaps" is not one of .* \(item 1\)$/);
	});

	it('the key is in no output, even when the body carries it', async () => {
		const result = await run(
			{ resource: 'lead', operation: 'create', name: sandbox.apiKey, email: 'key.name@example.com' },
			{ mode: 'manual', manualWrites: 'dryRun' },
		);
		expect(result.error).toBeUndefined();
		expect(JSON.stringify(result.items)).not.toContain(sandbox.apiKey);
		expectNoSecret(result, sandbox.apiKey);
	});
});

describe('Routine Add Lead details', () => {
	it('a malformed routine id fails with the same error in a dry run as for real', async () => {
		const parameters = {
			resource: 'routine',
			operation: 'addLead',
			routineId: { __rl: true, mode: 'id', value: '..' },
			leadId: 'lead-1',
		};
		const dry = await run(parameters, { mode: 'manual', manualWrites: 'dryRun' });
		const real = await run(parameters, { mode: 'trigger', manualWrites: 'dryRun' });
		expect(dry.error?.message).toMatch(/routineId/);
		expect(dry.error?.message).toBe(real.error?.message);
		expect(sandbox.control.requests()).toEqual([]);
	});
});

describe('Webhook Delete details', () => {
	it('a dry run reads whether the webhook exists and says what the service would answer', async () => {
		const id = await existingWebhook(sandbox, { name: 'To delete', url: 'https://example.com/hook' });
		const before = writes().length;
		const found = await run(
			{ resource: 'webhook', operation: 'delete', webhookId: id },
			{ mode: 'manual', manualWrites: 'dryRun' },
		);
		expect(found.error).toBeUndefined();
		expect(found.items[0].json.wouldReturn).toEqual({ id, deleted: true });
		expect(String(found.items[0].json.message)).toMatch(
			/The webhook exists \("To delete", "https:\/\/example.com\/hook"\) and would be deleted\.$/,
		);

		const missing = await run(
			{ resource: 'webhook', operation: 'delete', webhookId: 'wh_missing' },
			{ mode: 'manual', manualWrites: 'dryRun' },
		);
		expect(missing.error).toBeUndefined();
		expect(missing.items[0].json.wouldReturn).toBeUndefined();
		expect(String(missing.items[0].json.message)).toMatch(/would answer 404 Not Found\.$/);
		expect(writes().slice(before)).toEqual([]);
		expect(sandbox.control.webhooks().map((webhook) => webhook.id)).toEqual([id]);
	});
});

describe('visible in the editor', () => {
	const subtitleOf = (parameters: INode['parameters']): unknown => {
		const node: INode = {
			id: 'p',
			name: NODE_NAME,
			type: PROSPECTING_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters,
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		// What the editor does for the line under a node's name.
		return workflow.expression.getSimpleParameterValue(
			node,
			new Prospecting().description.subtitle,
			'internal',
			{},
		);
	};

	it('the subtitle says when the node overrides the credential', () => {
		expect(subtitleOf({ resource: 'lead', operation: 'create', dryRun: 'always' })).toBe('create: lead (dry run)');
		expect(subtitleOf({ resource: 'lead', operation: 'create', dryRun: 'never' })).toBe(
			'create: lead (sends in manual runs)',
		);
		expect(subtitleOf({ resource: 'lead', operation: 'create', dryRun: 'credential' })).toBe('create: lead');
		expect(subtitleOf({ resource: 'lead', operation: 'getMany' })).toBe('getMany: lead');
	});

	it('every write shows the notice and the Dry Run parameter; no read does', () => {
		const properties = new Prospecting().description.properties;
		const shownOn = (name: string) =>
			properties
				.filter((property) => property.name === name)
				.flatMap((property) => {
					const show = property.displayOptions?.show ?? {};
					return (show.resource as string[]).flatMap((resource) =>
						(show.operation as string[]).map((operation) => `${resource}.${operation}`),
					);
				})
				.sort();
		const writeOperations = ['lead.create', 'routine.addLead', 'webhook.create', 'webhook.delete'];
		expect(shownOn('dryRun')).toEqual(writeOperations);
		expect(shownOn('dryRunNotice')).toEqual(writeOperations);
	});

	it('the credential offers the three choices, Dry Run by default', () => {
		const field = new ProspectingApi().properties.find((property) => property.name === 'manualWrites');
		expect(field?.default).toBe('dryRun');
		// The values are what saved credentials hold: a new name must keep its value.
		expect(
			(field?.options as Array<{ name: string; value: string }>).map((option) => [option.name, option.value]),
		).toEqual([
			['Dry Run (Send Nothing)', 'dryRun'],
			['Stop With Error', 'ask'],
			['Send to Production', 'send'],
		]);
	});
});

describe('the key stays out of the error', () => {
	it('Stop With Error does not repeat a key typed into an id field', async () => {
		const result = await run(
			{ resource: 'webhook', operation: 'delete', webhookId: sandbox.apiKey },
			{ mode: 'manual', manualWrites: 'ask' },
		);
		expect(result.error?.message).toMatch(/^Webhook Delete would write to production: DELETE \/webhooks\/\*\*\* /);
		// (The node's own parameters, which n8n attaches to every error, hold what the user typed.)
		expect(String(result.error?.message)).not.toContain(sandbox.apiKey);
		expect(String((result.error as { description?: string }).description)).not.toContain(sandbox.apiKey);
		expect(writes()).toEqual([]);
	});
});
