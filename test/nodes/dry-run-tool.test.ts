/**
 * Dry Run for the node as an AI Agent's tool: n8n-core runs the tool through createNodeAsTool with the parent's
 * execution mode, so a tool call inside a manual run follows the credential's "Writes in Manual Runs" and one inside
 * an active workflow sends. A small agent node calls the tool as n8n's AI Agent does (tool.invoke with the model's
 * arguments, which fill the $fromAI() parameters).
 */
import type { IDataObject, INode, WorkflowExecuteMode } from 'n8n-workflow';

import { registerNodeType } from '../../dev/harness/node-types';
import { callToolNode } from '../../dev/harness/tool-call';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm } from '../../dev/harness/tool-form';
import { everythingVisible } from './support';
import { useSandbox } from '../support/sandbox';

registerNodeType(PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm());

const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 10, routines: 2, prospections: 0 } });

const writes = () => sandbox.control.requests().filter((request) => request.kind === 'write');

async function callTool(
	mode: WorkflowExecuteMode,
	manualWrites: 'dryRun' | 'ask' | 'send',
	toolArgs: IDataObject,
	extra: IDataObject = {},
	typeVersion = 1,
) {
	const tool: INode = {
		id: 't',
		name: 'Create Lead',
		type: PROSPECTING_TOOL_NODE_TYPE,
		typeVersion,
		position: [200, 200],
		parameters: {
			resource: 'lead',
			operation: 'create',
			name: "={{ $fromAI('name', 'Name of the lead', 'string') }}",
			email: "={{ $fromAI('email', 'E-mail of the lead', 'string') }}",
			...extra,
		},
		credentials: { prospectingApi: { id: '1', name: 'Prospecting account' } },
	};
	const { result, json } = await callToolNode(tool, toolArgs, {
		credentials: { prospectingApi: { ...connection, manualWrites } },
		mode,
	});
	expect(result.error).toBeUndefined();
	return { result, json: json as IDataObject };
}

/** The error the tool answered the model with: `[{ "error": "..." }]`, the agent run going on. */
function toolError(json: IDataObject): string {
	expect(json.thrown).toBeUndefined();
	const answer = JSON.parse(String(json.answer)) as IDataObject[];
	expect(answer).toHaveLength(1);
	return String(answer[0].error);
}

it('a tool call in a manual run with the credential on Dry Run answers the agent with the would-be request', async () => {
	const { result, json } = await callTool('manual', 'dryRun', { name: 'Ana Tool', email: 'ana.tool@example.com' });
	expect(writes()).toEqual([]);
	const answer = JSON.parse(String(json.answer)) as IDataObject[];
	expect(answer[0]).toMatchObject({
		dryRun: true,
		written: false,
		operation: 'Lead Create',
		request: {
			method: 'POST',
			path: '/leads',
			body: { name: 'Ana Tool', emails: [{ value: 'ana.tool@example.com', label: 'Principal' }] },
		},
	});
	expect(String(answer[0].message)).toMatch(/^Dry run: nothing was written/);
	expect(everythingVisible(result)).not.toContain(sandbox.apiKey);
});

it('a tool call in a manual run with the credential on Stop With Error answers the agent with the error', async () => {
	const { json } = await callTool('manual', 'ask', { name: 'Ana Ask', email: 'ana.ask@example.com' });
	expect(writes()).toEqual([]);
	expect(toolError(json)).toMatch(/^Lead Create would write to production: POST \/leads/);
	expect(toolError(json)).toMatch(/"Always Send"/);
});

it('a tool call in an active workflow sends, whatever the credential says for manual runs', async () => {
	const { json } = await callTool('webhook', 'dryRun', { name: 'Ana Live', email: 'ana.live@example.com' });
	expect(writes()).toHaveLength(1);
	const answer = JSON.parse(String(json.answer)) as IDataObject[];
	expect(answer[0].dryRun).toBeUndefined();
	expect(
		sandbox.control.leads().some((lead) => lead.emails.some((item) => item.value === 'ana.live@example.com')),
	).toBe(true);
});

it('the tool node\'s own Always Dry Run holds in an active workflow', async () => {
	const { json } = await callTool('trigger', 'send', { name: 'Ana Dry', email: 'ana.dry@example.com' }, { dryRun: 'always' });
	expect(writes()).toEqual([]);
	expect(JSON.parse(String(json.answer))[0]).toMatchObject({ dryRun: true });
});

it('bad input from the model answers the agent with the same field error in a dry run', async () => {
	const { json } = await callTool('manual', 'dryRun', { name: 'Ana', email: 'not an address' });
	expect(writes()).toEqual([]);
	expect(toolError(json)).toMatch(/^email: .*\(item 0\)/);
});

it('a version 2 tool fills its Lead and Routine pickers from the model\'s arguments ($fromAI in By ID mode)', async () => {
	const lead = sandbox.control.leads()[0];
	const routine = sandbox.control.routines().find((candidate) => !lead.routineIds.includes(candidate.id))!;
	const fromAI = (key: string, what: string) => ({
		__rl: true,
		mode: 'id',
		value: `={{ $fromAI('${key}', '${what}', 'string') }}`,
	});
	const { json } = await callTool(
		'webhook',
		'send',
		{ routine: routine.id, lead: lead.id },
		{
			resource: 'routine',
			operation: 'addLead',
			routineId: fromAI('routine', 'ID of the routine'),
			leadId: fromAI('lead', 'ID of the lead'),
		},
		2,
	);
	expect(json.thrown).toBeUndefined();
	expect(writes().map((request) => request.path)).toEqual([`/api/v1/routines/${routine.id}/lead`]);
	expect(sandbox.control.leads().find((candidate) => candidate.id === lead.id)?.routineIds).toContain(routine.id);
});
