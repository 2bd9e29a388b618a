/**
 * The example workflows users import (examples/): on the current version of every Prospecting node, each with a
 * note saying what to set before publishing, ready once the demo binds them, and running on version 2's output:
 * every field an expression downstream reads is in it. Run through n8n's engine against the sandbox.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { IDataObject, INode, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';

import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';
import { ProspectingPollTrigger } from '../../nodes/Prospecting/ProspectingPollTrigger.node';
import { ProspectingTrigger } from '../../nodes/Prospecting/ProspectingTrigger.node';
import { bindWorkflow } from '../../scripts/lib/instance-setup';
import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { executeWorkflow, registerNodeType } from '../../dev/harness';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm } from '../../dev/harness/tool-form';
import { callSavedTool, prospectingPart, toolAnswer } from './support';
import type { SavedWorkflow } from './support';
import { useSandbox } from '../support/sandbox';

registerNodeType(PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm());

const EXAMPLES = join(__dirname, '..', '..', 'examples');

function exampleFiles(directory = EXAMPLES): string[] {
	return readdirSync(directory)
		.flatMap((name) => {
			const file = join(directory, name);
			if (statSync(file).isDirectory()) return exampleFiles(file);
			return name.endsWith('.json') ? [relative(EXAMPLES, file)] : [];
		})
		.sort();
}

const example = (file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as SavedWorkflow;

const defaultVersion = (description: INodeTypeDescription | INodeTypeBaseDescription) =>
	'defaultVersion' in description && description.defaultVersion !== undefined
		? description.defaultVersion
		: (description as INodeTypeDescription).version;

/** The version n8n gives each of our node types when a user adds it today. */
const CURRENT: Record<string, unknown> = {
	'n8n-nodes-prospecting.prospecting': defaultVersion(new Prospecting().description),
	[PROSPECTING_TOOL_NODE_TYPE]: defaultVersion(new Prospecting().description),
	'n8n-nodes-prospecting.prospectingPollTrigger': defaultVersion(new ProspectingPollTrigger().description),
	'n8n-nodes-prospecting.prospectingTrigger': defaultVersion(new ProspectingTrigger().description),
};

const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/** Generous room for a node on the canvas (the AI Agent is the widest), so that no note hides one. */
const nodeBox = (node: INode) => ({ left: node.position[0] - 20, top: node.position[1] - 20, right: node.position[0] + 280, bottom: node.position[1] + 140 });

const isEmptyPicker = (value: unknown) =>
	typeof value === 'object' && value !== null && (value as IDataObject).__rl === true && [undefined, ''].includes((value as IDataObject).value as string);

describe('the examples', () => {
	const files = exampleFiles();

	it('are the six workflows the README lists', () => {
		expect(files).toEqual([
			'ai-agent/prospecting-agent.json',
			'funnel-report.json',
			'lead-capture-form.json',
			'lead-capture.json',
			'mcp/prospecting-mcp-server.json',
			'won-lost-message.json',
		]);
	});

	it.each(files)('%s has every Prospecting node at its current version', (file) => {
		const ours = example(file).nodes.filter((node) => node.type in CURRENT);
		expect(ours.length).toBeGreaterThan(0);
		expect(ours.map((node) => [node.name, node.typeVersion])).toEqual(ours.map((node) => [node.name, CURRENT[node.type]]));
	});

	it.each(files)('%s has one note saying which credentials, routine and activation to set, beside its nodes', (file) => {
		const workflow = example(file);
		const notes = workflow.nodes.filter((node) => node.type === STICKY_NOTE);
		expect(notes).toHaveLength(1);
		const [note] = notes;
		expect(note.typeVersion).toBe(1);
		expect(Object.keys(note.parameters).sort()).toEqual(['color', 'content', 'height', 'width']);
		const content = String(note.parameters.content);
		const credentialNames = new Set(
			workflow.nodes.flatMap((node) => Object.values(node.credentials ?? {}).map((credential) => String(credential.name))),
		);
		for (const name of credentialNames) expect(content).toContain(name);
		expect(content).toMatch(/Publish.*Active/);
		const emptyRoutine = workflow.nodes.some((node) => isEmptyPicker(node.parameters.routineId));
		if (emptyRoutine) expect(content).toMatch(/pick the \*\*Routine\*\*.*ships empty/);

		const box = {
			left: note.position[0],
			top: note.position[1],
			right: note.position[0] + Number(note.parameters.width),
			bottom: note.position[1] + Number(note.parameters.height),
		};
		const covered = workflow.nodes
			.filter((node) => node !== note)
			.filter((node) => {
				const other = nodeBox(node);
				return other.left < box.right && box.left < other.right && other.top < box.bottom && box.top < other.bottom;
			});
		expect(covered.map((node) => node.name)).toEqual([]);
	});

	it.each(files)('%s has no empty record picker once the demo binds it to a routine', (file) => {
		const bound = bindWorkflow(example(file) as unknown as WorkflowJson, {
			credential: { id: '7', name: 'Prospecting API' },
			routineId: 'routine-1',
		});
		const empty = bound.nodes.flatMap((node) =>
			Object.entries(node.parameters ?? {})
				.filter(([, value]) => isEmptyPicker(value))
				.map(([name]) => `${node.name}.${name}`),
		);
		expect(empty).toEqual([]);
	});
});

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 12, routines: 3, prospections: 40 } });

const credentials = () => ({ prospectingApi: connection });
const leadsWithEmail = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));

/** The fields of `nodeName`'s output that the workflow's expressions read (`$('Node').item.json.field`). */
function fieldsReadFrom(workflow: SavedWorkflow, nodeName: string): string[] {
	const text = JSON.stringify(workflow.nodes.map((node) => node.parameters));
	const escaped = nodeName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const pattern = new RegExp(`\\$\\('${escaped}'\\)\\.item\\.json\\.(\\w+)`, 'g');
	return [...new Set([...text.matchAll(pattern)].map((match) => match[1]))].sort();
}

describe('the lead capture examples on version 2', () => {
	it.each([
		['lead-capture-form.json', { Name: 'Ada Reis', Company: 'Reis SA', 'E-mail': 'ada@reis.example.com', Phone: '' }],
		['lead-capture.json', { body: { name: 'Ada Reis', company: 'Reis SA', email: 'ada@reis.example.com' } }],
	])('%s creates the simplified lead its pages read, and adds it to the routine', async (file, input) => {
		const workflow = example(file);
		const routine = sandbox.control.routines()[1];
		const run = await executeWorkflow(prospectingPart(workflow, routine), {
			credentials: credentials(),
			inputItems: [input],
			mode: 'trigger',
		});
		expect(run.error).toBeUndefined();
		const created = run.output('Create lead')[0].json;
		expect(created).toMatchObject({ name: 'Ada Reis', company: 'Reis SA', email: 'ada@reis.example.com' });
		const read = fieldsReadFrom(workflow, 'Create lead');
		expect(read).toContain('name');
		expect(read.filter((field) => created[field] === undefined)).toEqual([]);
		// Add to routine maps the lead by `$json.id` of Create lead's output.
		expect(leadsWithEmail('ada@reis.example.com')).toHaveLength(1);
		expect(leadsWithEmail('ada@reis.example.com')[0]).toMatchObject({ id: created.id, routineIds: [routine.id] });
	});

	it('lead-capture-form.json sends a person without a contact to its error page with the text the page looks for', async () => {
		const run = await executeWorkflow(prospectingPart(example('lead-capture-form.json'), sandbox.control.routines()[0]), {
			credentials: credentials(),
			inputItems: [{ Name: 'Sem Contato', Company: 'Nada', 'E-mail': '', Phone: '' }],
			mode: 'trigger',
		});
		expect(run.error).toBeUndefined();
		const page = example('lead-capture-form.json').nodes.find((node) => node.name === 'Not registered')!;
		expect(String(page.parameters.completionMessage)).toContain("includes('at least one contact')");
		expect(String(run.output('Create lead', 1)[0].json.error)).toContain('at least one contact');
	});
});

it('funnel-report.json gives the counts its report reads', async () => {
	const run = await executeWorkflow(prospectingPart(example('funnel-report.json')), { credentials: credentials() });
	expect(run.error).toBeUndefined();
	const rate = run.output('Get conversion rate')[0].json;
	const report = example('funnel-report.json').nodes.find((node) => node.name === 'Format report')!;
	const read = [...new Set([...JSON.stringify(report.parameters).matchAll(/\$json\.(\w+)/g)].map((match) => match[1]))];
	expect(read.sort()).toEqual(['conversionRate', 'decided', 'lost', 'won']);
	expect(read.filter((field) => typeof rate[field] !== 'number')).toEqual([]);
	expect(rate.decided).toBeGreaterThan(0);
});

const call = async (file: string, name: string, args: IDataObject) =>
	await callSavedTool(example(file), name, 2, args, sandbox);

describe('the AI agent and MCP examples on version 2', () => {
	it('the agent finds a lead (compact records), creates one and adds it to a routine by the ids the model passes', async () => {
		const file = 'ai-agent/prospecting-agent.json';
		const lead = sandbox.control.leads().find((candidate) => candidate.emails.length > 0)!;
		const found = toolAnswer(await call(file, 'Lead Get Many', { search: lead.emails[0].value, limit: 5 }));
		expect(found.find((record) => record.id === lead.id)?.emails).toEqual(lead.emails.map((item) => item.value));
		const email = 'rui@lima.example.com';
		const [created] = toolAnswer(await call(file, 'Lead Create', { name: 'Rui Lima', company: '', email, phone: '' }));
		const routine = sandbox.control.routines()[2];
		await call(file, 'Routine Add Lead', { routineId: routine.id, leadId: String(created.id) });
		expect(leadsWithEmail(email)).toHaveLength(1);
		expect(leadsWithEmail(email)[0].routineIds).toEqual([routine.id]);
	});

	it('the MCP server reads compact records, raises bad arguments, and its writes stay dry runs', async () => {
		const file = 'mcp/prospecting-mcp-server.json';
		const lead = sandbox.control.leads().find((candidate) => candidate.emails.length > 0)!;
		const found = toolAnswer(await call(file, 'search_leads', { search: lead.emails[0].value, limit: 5 }));
		expect(found.find((record) => record.id === lead.id)?.emails).toEqual(lead.emails.map((item) => item.value));
		const routines = toolAnswer(await call(file, 'list_routines', { limit: 10 }));
		expect(routines.map((routine) => routine.id)).toEqual(expect.arrayContaining([sandbox.control.routines()[0].id]));
		expect((await call(file, 'list_prospections', { status: 'SOMETIMES', limit: 5 })).thrown).toContain('status');
		const [dryAdd] = toolAnswer(await call(file, 'add_lead_to_routine', { routineId: routines[0].id, leadId: lead.id }));
		expect(dryAdd).toMatchObject({ dryRun: true, written: false, request: { body: { leadId: lead.id } } });
		expect(sandbox.control.requests().filter((request) => request.kind === 'write')).toHaveLength(0);
	});
});
