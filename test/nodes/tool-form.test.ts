/**
 * The Prospecting node as an AI agent's tool: n8n builds the tool form as a copy of the node whose type name ends
 * in "Tool" (n8n's convertNodeToAiTool); its `@tool` display options decide the defaults. Run here through the
 * same engine, with such a copy registered.
 */
import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { compactRecord, messageForAgent } from '../../nodes/Prospecting/actions/tool';
import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';
import { registerNodeType } from '../../dev/harness';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm, runToolForm } from '../../dev/harness/tool-form';
import { jsonOf } from './support';
import { useSandbox } from '../support/sandbox';

const TOOL_TYPE = PROSPECTING_TOOL_NODE_TYPE;

const { sandbox } = useSandbox({ rateLimit: false, dataset: { leads: 30, routines: 3, prospections: 10 } });
beforeAll(() => registerNodeType(TOOL_TYPE, prospectingToolForm()));

async function runTool(parameters: INode['parameters'], typeVersion = 1) {
	return await runToolForm(sandbox, parameters, { name: 'Lead Get Many', typeVersion });
}

describe('tool form', () => {
	const defaults = (description: INodeTypeDescription, typeVersion: number, operation: string) =>
		NodeHelpers.getNodeParameters(
			description.properties,
			{ resource: 'lead', operation },
			true,
			false,
			{ typeVersion },
			description,
		);

	it("keeps n8n's Limit of 50 and, in version 1, Simplify on by default; the editor form's Simplify is off there", () => {
		const tool = prospectingToolForm().description;
		const editor = new Prospecting().description;
		expect(defaults(tool, 1, 'getMany')).toMatchObject({ returnAll: false, limit: 50, simplify: true });
		expect(defaults(tool, 1, 'getMany')).not.toHaveProperty('output');
		expect(defaults(editor, 1, 'getMany')).toMatchObject({ returnAll: false, limit: 50, simplify: false });
		expect(defaults(editor, 1, 'getMany')).not.toHaveProperty('output');
	});

	it('offers Output (Simplified by default) instead of Simplify from version 2, in the tool form only', () => {
		const tool = prospectingToolForm().description;
		const editor = new Prospecting().description;
		expect(defaults(tool, 2, 'getMany')).toMatchObject({ limit: 50, output: 'simplified' });
		expect(defaults(tool, 2, 'getMany')).not.toHaveProperty('simplify');
		expect(defaults(editor, 2, 'getMany')).not.toHaveProperty('output');
	});

	it('returns at most Limit compact leads by default: contacts as plain values, empty fields left out', async () => {
		const run = await runTool({ resource: 'lead', operation: 'getMany', limit: 10 });
		expect(run.error).toBeUndefined();
		const leads = jsonOf(run.items);
		expect(leads).toHaveLength(10);
		for (const lead of leads) {
			for (const kind of ['emails', 'phones', 'mobiles']) {
				const values = lead[kind];
				if (values === undefined) continue;
				expect(Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string')).toBe(true);
			}
			expect(Object.values(lead).every((value) => value !== '' && value !== null)).toBe(true);
		}
		const first = sandbox.control.leads().find((lead) => lead.id === leads[0].id)!;
		expect(leads[0].emails ?? []).toEqual(first.emails.map((item) => item.value));
		// Every field the service sent stays, not only those of the editor's simplified lead (its `email` and no status).
		expect(leads[0]).toMatchObject({ status: first.status, origin: first.origin, sourceId: first.sourceId, createdById: first.createdById });
		expect(leads[0]).not.toHaveProperty('email');
	});

	it('returns full records when Simplify is off', async () => {
		const run = await runTool({ resource: 'lead', operation: 'getMany', limit: 2, simplify: false });
		const leads = jsonOf(run.items);
		expect(leads).toHaveLength(2);
		expect(Array.isArray(leads[0].phones)).toBe(true);
		expect(leads.every((lead) => Array.isArray(lead.emails) && lead.emails.every((e) => typeof e === 'object'))).toBe(true);
	});

	it('refuses a Simplify that is not true or false before any call', async () => {
		const run = await runTool({ resource: 'lead', operation: 'getMany', simplify: 'yes' });
		expect(run.error).toBeUndefined();
		expect(jsonOf(run.items)[0].error).toBe(
			'simplify: expected true or false, got "yes" (item 0)\n' +
				'Fix the "simplify" parameter of item 0; nothing was sent to the service for this item.',
		);
		expect(sandbox.control.requests()).toHaveLength(0);
	});

	it('returns compact records by default from version 2, as Simplify did', async () => {
		const run = await runTool({ resource: 'lead', operation: 'getMany', limit: 3 }, 2);
		expect(run.error).toBeUndefined();
		const leads = jsonOf(run.items);
		expect(leads).toHaveLength(3);
		const first = sandbox.control.leads().find((lead) => lead.id === leads[0].id)!;
		expect(leads[0].emails ?? []).toEqual(first.emails.map((item) => item.value));
		for (const lead of leads) {
			expect(Object.values(lead).every((value) => value !== '' && !(Array.isArray(value) && value.length === 0))).toBe(true);
		}
	});

	it('returns the records as the service sends them with Output Raw', async () => {
		const run = await runTool({ resource: 'lead', operation: 'getMany', limit: 2, output: 'raw' }, 2);
		const leads = jsonOf(run.items);
		const first = sandbox.control.leads().find((lead) => lead.id === leads[0].id)!;
		expect(leads[0]).toEqual(JSON.parse(JSON.stringify(first)));
	});

	it('returns only the named fields and the id with Output Selected Fields', async () => {
		const run = await runTool(
			{ resource: 'lead', operation: 'getMany', limit: 2, output: 'selected', fields: 'name, emails' },
			2,
		);
		const leads = jsonOf(run.items);
		expect(leads).toHaveLength(2);
		for (const lead of leads) {
			const stored = sandbox.control.leads().find((candidate) => candidate.id === lead.id)!;
			expect(lead).toEqual({
				id: stored.id,
				name: stored.name,
				emails: JSON.parse(JSON.stringify(stored.emails)),
			});
		}
	});

	it('keeps the id with Selected Fields even when no field is named', async () => {
		const run = await runTool(
			{ resource: 'routine', operation: 'getMany', output: 'selected', fields: '' },
			2,
		);
		expect(jsonOf(run.items)).toEqual(sandbox.control.routines().map((routine) => ({ id: routine.id })));
	});

	it('refuses an Output that is not one of the choices before any call', async () => {
		const run = await runTool({ resource: 'lead', operation: 'getMany', output: 'everything' }, 2);
		expect(String(jsonOf(run.items)[0].error)).toContain(
			'output: "everything" is not one of simplified, raw, selected (item 0)',
		);
		expect(sandbox.control.requests()).toHaveLength(0);
	});

	it("answers an error as text for the agent: the service's message with the field it named", async () => {
		const run = await runTool({ resource: 'lead', operation: 'create', name: 'Caio', phone: '1234567' });
		expect(run.error).toBeUndefined();
		expect(jsonOf(run.items)).toHaveLength(1);
		const message = String(jsonOf(run.items)[0].error);
		expect(message).toContain('phones[0].value');
		expect(message).toContain('Telefone inválido');
		expect(message).not.toContain(sandbox.apiKey);
	});
});

describe('compactRecord and messageForAgent', () => {
	it('leaves out empty values and reduces contact items to their values', () => {
		expect(
			compactRecord({
				id: 'l1',
				name: 'Ana',
				company: '',
				emails: [{ value: 'a@x.com', label: 'Principal' }],
				phones: [],
				meta: { note: null, source: 'api' },
				extra: null,
			}),
		).toEqual({ id: 'l1', name: 'Ana', emails: ['a@x.com'], meta: { source: 'api' } });
	});

	it('joins a description the message does not already hold', () => {
		expect(messageForAgent('Dados inválidos', 'phones[0].value: Telefone inválido')).toBe(
			'Dados inválidos\nphones[0].value: Telefone inválido',
		);
		expect(messageForAgent('a: b', 'a: b')).toBe('a: b');
		expect(messageForAgent('x', undefined)).toBe('x');
	});
});
