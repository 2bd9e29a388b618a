/**
 * The tool form's Errors option: "Answer as Text" (the default, for n8n's AI Agent) answers an error as the tool's
 * result; "Raise as Tool Error" fails the tool with the same message and field, which an MCP client sees as a tool
 * error. Run through the same engine as test/nodes/tool-form.test.ts, with the node's tool form registered.
 */
import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';
import { registerNodeType } from '../../dev/harness';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm, runToolForm } from '../../dev/harness/tool-form';
import { jsonOf } from './support';
import { useSandbox } from '../support/sandbox';

const TOOL_TYPE = PROSPECTING_TOOL_NODE_TYPE;

const { sandbox } = useSandbox({ rateLimit: false, dataset: { leads: 5, routines: 1, prospections: 2 } });
beforeAll(() => registerNodeType(TOOL_TYPE, prospectingToolForm()));

async function runTool(parameters: INode['parameters']) {
	return await runToolForm(sandbox, parameters, { name: 'create_lead' });
}

const refusedLead = { resource: 'lead', operation: 'create', name: 'Caio', phone: '1234567' };

describe('the tool form\'s Errors option', () => {
	it('is in the tool form only, on "Answer as Text" by default, and is no argument of the model', () => {
		const defaults = (description: INodeTypeDescription) =>
			NodeHelpers.getNodeParameters(description.properties, { resource: 'lead', operation: 'create' }, true, false, null, description);
		expect(defaults(prospectingToolForm().description)).toMatchObject({ toolErrors: 'text' });
		expect(defaults(new Prospecting().description)).not.toHaveProperty('toolErrors');
		const property = prospectingToolForm().description.properties.find((p) => p.name === 'toolErrors')!;
		expect(property.noDataExpression).toBe(true);
		expect(property.options?.map((option) => 'name' in option && option.name)).toEqual(['Answer as Text', 'Raise as Tool Error']);
	});

	it("answers the service's refusal as text by default, with its Portuguese message and the field", async () => {
		const run = await runTool(refusedLead);
		expect(run.error).toBeUndefined();
		const message = String(jsonOf(run.items)[0].error);
		expect(message).toContain('Telefone inválido');
		expect(message).toContain('phones[0].value');
	});

	it("fails the tool on \"Raise as Tool Error\" with the service's Portuguese message and the field, and no API key", async () => {
		const run = await runTool({ ...refusedLead, toolErrors: 'raise' });
		expect(run.error).toBeDefined();
		const message = String(run.error?.message);
		expect(message).toContain('Telefone inválido');
		expect(message).toContain('phones[0].value');
		expect(message).not.toContain(sandbox.apiKey);
		expect(JSON.stringify(run.error)).not.toContain(sandbox.apiKey);
	});

	it('fails the tool on "Raise as Tool Error" for a bad argument it refuses, naming the item and the field, before any call', async () => {
		const run = await runTool({ resource: 'lead', operation: 'getMany', limit: 2, simplify: 'yes', toolErrors: 'raise' });
		expect(String(run.error?.message)).toBe(
			'simplify: expected true or false, got "yes" (item 0)\n' +
				'Fix the "simplify" parameter of item 0; nothing was sent to the service for this item.',
		);
		expect(sandbox.control.requests()).toHaveLength(0);
	});
});
