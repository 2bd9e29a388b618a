/**
 * The example workflows users import (examples/): on the current version of every Prospecting node, each with a
 * note saying what to set before publishing and, for a public URL, what protects it; ready once the demo binds them,
 * and running on version 2's output: every field an expression downstream reads is in it. The lead capture examples
 * answer on receipt with nothing from the run, and add to the routine only a lead their run created; the form tells
 * a run from the editor (a dry run) apart. The n8n Cloud recipe uses n8n's own nodes only (it runs in real n8n in
 * test/e2e/cloud-recipe.e2e.ts). Run through n8n's engine against the sandbox.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { IConnections, IDataObject, INode, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';

import { Prospecting } from '../../nodes/Prospecting/Prospecting.node';
import { ProspectingPollTrigger } from '../../nodes/Prospecting/ProspectingPollTrigger.node';
import { ProspectingTrigger } from '../../nodes/Prospecting/ProspectingTrigger.node';
import { bindWorkflow } from '../../scripts/lib/instance-setup';
import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { executeWorkflow, PROSPECTING_NODE_TYPE, registerNodeType, START_NODE, type WorkflowRunResult } from '../../dev/harness';
import { IF_NODE_TYPE, IfNode } from '../../dev/harness/if-node';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm } from '../../dev/harness/tool-form';
import { callSavedTool, ownCredential, prospectingPart, toolAnswer } from './support';
import type { SavedWorkflow } from './support';
import { useSandbox } from '../support/sandbox';

registerNodeType(PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm());
registerNodeType(IF_NODE_TYPE, new IfNode());

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

/** Start nodes that answer anyone who reaches n8n's address (the MCP Server Trigger, a Webhook, a Form, our trigger's webhook). */
const PUBLIC_TRIGGERS = [
	'n8n-nodes-base.webhook',
	'n8n-nodes-base.formTrigger',
	'@n8n/n8n-nodes-langchain.mcpTrigger',
	'n8n-nodes-prospecting.prospectingTrigger',
];

/** The protection a trigger's Authentication names, as its note should say it. */
const AUTHENTICATION_NAMES: Record<string, string> = { headerAuth: 'Header Auth', bearerAuth: 'Bearer Auth', basicAuth: 'Basic Auth' };

/** Generous room for a node on the canvas (the AI Agent is the widest), so that no note hides one. */
const nodeBox = (node: INode) => ({ left: node.position[0] - 20, top: node.position[1] - 20, right: node.position[0] + 280, bottom: node.position[1] + 140 });

/** A form's answer as n8n shows it in a run of `mode` (`$execution.mode`: "test" from the editor, else "production"). */
function formAnswer(text: string, mode: 'test' | 'production'): string {
	if (!text.startsWith('={{')) return text;
	return String(new Function('$execution', `return (${text.slice(3, -2)})`)({ mode }));
}

const isEmptyPicker = (value: unknown) =>
	typeof value === 'object' && value !== null && (value as IDataObject).__rl === true && [undefined, ''].includes((value as IDataObject).value as string);

/** The examples README.md lists, each with the text of its entry. */
function readmeExamples(): Array<{ file: string; entry: string }> {
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const section = readme.slice(readme.indexOf('\n## Examples'), readme.indexOf('\n## ', readme.indexOf('\n## Examples') + 1));
	return section
		.split(/\n(?=- )/)
		.filter((entry) => entry.startsWith('- '))
		.flatMap((entry) => [...entry.matchAll(/`([\w/-]+\.json)`/g)].map((match) => ({ file: match[1], entry: entry.replace(/\s+/g, ' ') })));
}

/** The recipe for n8n Cloud, where this package cannot be installed: n8n's own nodes only. */
const CLOUD_RECIPE = 'n8n-cloud/lead-capture-form.json';

describe('the examples', () => {
	const files = exampleFiles();
	const packageExamples = files.filter((file) => file !== CLOUD_RECIPE);

	it('are the workflows the README lists, each once', () => {
		const listed = readmeExamples().map(({ file }) => file);
		expect([...listed].sort()).toEqual(files);
		expect(new Set(listed).size).toBe(listed.length);
	});

	it('the README names, in the order they run, the nodes of each example it draws as a chain', () => {
		const chains = readmeExamples().flatMap(({ file, entry }) =>
			[...entry.matchAll(/\*\*[^*]+\*\*(?: → \*\*[^*]+\*\*)+/g)].map((match) => ({ file, names: match[0].split(' → ').map((name) => name.slice(2, -2)) })),
		);
		expect(chains.length).toBeGreaterThan(1);
		for (const { file, names } of chains) {
			const { connections } = example(file);
			const steps = names.slice(1).map((name, step) => [names[step], name]);
			const unconnected = steps.filter(([from, to]) => !(connections[from]?.main ?? []).flat().some((target) => target?.node === to));
			expect([file, unconnected]).toEqual([file, []]);
		}
	});

	it("the README's figure of the funnel report is what its report gives for those counts", () => {
		const [{ entry }] = readmeExamples().filter(({ file }) => file === 'funnel-report.json');
		const quoted = /"(Conversion rate [^"]+)"/.exec(entry)?.[1];
		expect(quoted).toBeDefined();
		const [, won, lost] = /: (\d+) won, (\d+) lost/.exec(quoted!)!.map(Number);
		const report = example('funnel-report.json').nodes.find((node) => node.name === 'Format report')!;
		const assignments = (report.parameters.assignments as { assignments: Array<{ name: string; value: string }> }).assignments;
		const template = assignments.find((assignment) => assignment.name === 'report')!.value.replace(/^=/, '');
		const $json = { won, lost, decided: won + lost, conversionRate: Math.round((won / (won + lost)) * 1000) / 1000 };
		const rendered = template.replace(/\{\{([^}]+)\}\}/g, (_all, expression: string) => String(new Function('$json', `return (${expression})`)($json)));
		expect(rendered).toBe(quoted);
	});

	it(`${CLOUD_RECIPE} uses n8n's own nodes only, so n8n Cloud can import it, and keeps the key in a Query Auth credential`, () => {
		const workflow = example(CLOUD_RECIPE);
		expect(workflow.nodes.filter((node) => !node.type.startsWith('n8n-nodes-base.')).map((node) => node.type)).toEqual([]);
		const requests = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.httpRequest');
		expect(requests.map((node) => node.name)).toEqual(['Search lead', 'Create lead', 'Add to routine']);
		for (const node of requests) {
			expect([node.name, node.parameters.authentication, node.parameters.genericAuthType, Object.keys(node.credentials ?? {})]).toEqual([
				node.name,
				'genericCredentialType',
				'httpQueryAuth',
				['httpQueryAuth'],
			]);
			expect(JSON.stringify(node.parameters)).not.toMatch(/apiKey/i);
		}
	});

	it.each(packageExamples)('%s has every Prospecting node at its current version', (file) => {
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

	it.each(files)('%s says in its note what protects each public URL it has', (file) => {
		const workflow = example(file);
		const content = String(workflow.nodes.find((node) => node.type === STICKY_NOTE)!.parameters.content);
		const triggers = workflow.nodes.filter((node) => PUBLIC_TRIGGERS.includes(node.type));
		expect(triggers.length).toBeGreaterThan(0);
		expect(content).toMatch(/\*\*Public URL\.\*\*.*(What protects it: |nothing protects it as shipped)/s);
		for (const trigger of triggers) {
			const authentication = trigger.parameters.authentication as string | undefined;
			if (authentication && authentication !== 'none') {
				expect(content).toContain(`What protects it: **${AUTHENTICATION_NAMES[authentication]}**`);
			}
		}
	});

	it('the AI agent example answers only callers that send its Header Auth credential', () => {
		const trigger = example('ai-agent/prospecting-agent.json').nodes.find((node) => node.name === 'Ask the agent')!;
		expect(trigger.type).toBe('n8n-nodes-base.webhook');
		expect(trigger.parameters.authentication).toBe('headerAuth');
		expect(Object.keys(trigger.credentials ?? {})).toEqual(['httpHeaderAuth']);
	});

	it('the lead capture webhook answers { "received": true } as JSON on receipt, with nothing from the run', () => {
		const trigger = example('lead-capture.json').nodes.find((node) => node.name === 'Lead form')!;
		const { responseMode, responseData, options } = trigger.parameters as {
			responseMode: string;
			responseData?: string;
			options: { responseData: string; responseHeaders: { entries: Array<{ name: string; value: string }> } };
		};
		// onReceived: n8n answers as soon as the execution is started, before any node runs.
		expect(responseMode).toBe('onReceived');
		expect(responseData).toBeUndefined();
		expect(JSON.parse(options.responseData)).toEqual({ received: true });
		expect(options.responseHeaders.entries).toEqual([{ name: 'Content-Type', value: 'application/json' }]);
	});

	it.each(['lead-capture-form.json', CLOUD_RECIPE])(
		'%s thanks on receipt with a fixed text, and has no page that could show an error or a lead',
		(file) => {
			const workflow = example(file);
			const trigger = workflow.nodes.find((node) => node.name === 'Lead form')!;
			const { responseMode, options } = trigger.parameters as {
				responseMode: string;
				options: { respondWithOptions: { values: { respondWith: string; formSubmittedText: string } } };
			};
			expect(responseMode).toBe('onReceived');
			expect(options.respondWithOptions.values.respondWith).toBe('text');
			expect(formAnswer(options.respondWithOptions.values.formSubmittedText, 'production')).toBe(
				'Thanks! A salesperson from our team will contact you soon.',
			);
			// A Form page or a Respond to Webhook node would make n8n wait for the run and show what it put there.
			const answering = workflow.nodes.filter((node) => ['n8n-nodes-base.form', 'n8n-nodes-base.respondToWebhook'].includes(node.type));
			expect(answering.map((node) => node.name)).toEqual([]);
		},
	);

	it('lead-capture-form.json answers a test from the editor that nothing is sent by default, and how to create leads', () => {
		const trigger = example('lead-capture-form.json').nodes.find((node) => node.name === 'Lead form')!;
		const text = (trigger.parameters.options as { respondWithOptions: { values: { formSubmittedText: string } } }).respondWithOptions.values
			.formSubmittedText;
		const answer = formAnswer(text, 'test');
		expect(answer).toMatch(/^Test run from the editor: .*nothing is sent to the service/);
		expect(answer).toMatch(/publish the workflow and open the Production URL/);
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

/**
 * The part of an example that runs in the harness: its Prospecting and If nodes, fed by the harness's start node
 * in place of the trigger, bound to the sandbox (and to `routine` where the routine picker ships empty).
 */
function runnablePart(workflow: SavedWorkflow, routine: { id: string; name: string }) {
	const kept = workflow.nodes
		.filter((node) => node.type === PROSPECTING_NODE_TYPE || node.type === IF_NODE_TYPE)
		.map((node) => {
			if (node.type === IF_NODE_TYPE) return node;
			const routineId = node.parameters.routineId as { value?: unknown } | undefined;
			const parameters =
				routineId?.value === '' ? { ...node.parameters, routineId: { __rl: true, mode: 'id', value: routine.id } } : node.parameters;
			return { ...node, parameters, credentials: ownCredential };
		});
	const names = new Set(kept.map((node) => node.name));
	const connections: IConnections = { [START_NODE.name]: { main: [[]] } };
	for (const [source, outputs] of Object.entries(workflow.connections)) {
		const main = (outputs.main ?? []).map((targets) => (targets ?? []).filter((target) => names.has(target.node)));
		if (names.has(source)) connections[source] = { main };
		else connections[START_NODE.name].main[0]!.push(...main.flat());
	}
	return { nodes: [START_NODE, ...kept], connections };
}

/** A lead that exists before the form is sent, in no routine. */
async function existingLead(name: string, company: string, email: string): Promise<IDataObject> {
	const response = await fetch(`${connection.baseUrl}/api/v1/leads?apiKey=${connection.apiKey}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name, company, emails: [{ value: email, label: 'Principal' }] }),
	});
	expect(response.status).toBeLessThan(300);
	return (await response.json()) as IDataObject;
}

const ran = (run: WorkflowRunResult, nodeName: string) => nodeName in run.run.data.resultData.runData;
const routineAdds = () => sandbox.control.requests().filter((request) => request.method === 'POST' && /\/routines\/[^/]+\/lead$/.test(request.path));

type Person = { name: string; company: string; email: string };
/** Each example's trigger output for a person; `anonymous` is what a stranger who knows only the e-mail can send. */
const CAPTURES: Array<[string, (person: Person) => IDataObject, (person: Person) => IDataObject]> = [
	[
		'lead-capture-form.json',
		({ name, company, email }) => ({ Name: name, Company: company, 'E-mail': email, Phone: '' }),
		// The form asks for a name: a stranger types the person's name, any company.
		({ name, email }) => ({ Name: name, Company: 'Other', 'E-mail': email, Phone: '' }),
	],
	['lead-capture.json', (body) => ({ body }), ({ email }) => ({ body: { email } })],
];

describe('the lead capture examples on version 2', () => {
	const capture = async (file: string, input: IDataObject, routine = sandbox.control.routines()[1]) =>
		await executeWorkflow(runnablePart(example(file), routine), { credentials: credentials(), inputItems: [input], mode: 'trigger' });

	it.each(CAPTURES)('%s creates the simplified lead its expressions read, and adds it to the routine', async (file, input) => {
		const workflow = example(file);
		const routine = sandbox.control.routines()[1];
		const email = `ada.${file.length}@reis.example.com`;
		const run = await capture(file, input({ name: 'Ada Reis', company: 'Reis SA', email }), routine);
		expect(run.error).toBeUndefined();
		const created = run.output('Create lead')[0].json;
		expect(created).toMatchObject({ name: 'Ada Reis', company: 'Reis SA', email, leadOutcome: 'created' });
		const read = fieldsReadFrom(workflow, 'Create lead');
		expect(read.filter((field) => created[field] === undefined)).toEqual([]);
		expect(run.output('New lead?', 0)).toHaveLength(1);
		// Add to routine maps the lead by `$json.id` of Create lead's output.
		expect(leadsWithEmail(email)).toHaveLength(1);
		expect(leadsWithEmail(email)[0]).toMatchObject({ id: created.id, routineIds: [routine.id] });
	});

	it.each(CAPTURES)('%s does not add a lead that already existed to the routine again, nor a second lead', async (file, _input, anonymous) => {
		const email = `bia.${file.length}@costa.example.com`;
		const lead = await existingLead('Bia Costa', 'Costa Ltda', email);
		const addsBefore = routineAdds().length;
		const run = await capture(file, anonymous({ name: 'Bia Costa', company: 'Costa Ltda', email }));
		expect(run.error).toBeUndefined();
		expect(run.output('Create lead')[0].json).toMatchObject({ id: lead.id, leadOutcome: 'found' });
		expect(run.output('New lead?', 0)).toEqual([]);
		expect(ran(run, 'Add to routine')).toBe(false);
		expect(routineAdds().length).toBe(addsBefore);
		expect(leadsWithEmail(email)).toEqual([expect.objectContaining({ id: lead.id, name: 'Bia Costa', routineIds: [] })]);
	});

	it.each(CAPTURES)('%s sent twice for one person: one lead, added to the routine once', async (file, input) => {
		const email = `caio.${file.length}@prado.example.com`;
		const routine = sandbox.control.routines()[2];
		const addsBefore = routineAdds().length;
		for (let time = 0; time < 2; time++) {
			const run = await capture(file, input({ name: 'Caio Prado', company: 'Prado ME', email }), routine);
			expect(run.error).toBeUndefined();
		}
		expect(leadsWithEmail(email)).toEqual([expect.objectContaining({ routineIds: [routine.id] })]);
		expect(routineAdds().length).toBe(addsBefore + 1);
	});

	it('lead-capture-form.json tested from the editor: Create lead is a dry run, nothing is written, and the run ends in Dry run?', async () => {
		const email = `dora.test@lima.example.com`;
		const writesBefore = sandbox.control.requests().filter((request) => request.kind === 'write').length;
		const person = { Name: 'Dora Lima', Company: 'Lima SA', 'E-mail': email, Phone: '' };
		const run = await executeWorkflow(runnablePart(example('lead-capture-form.json'), sandbox.control.routines()[0]), {
			credentials: credentials(),
			// The credential as a user saves it: n8n fills Writes in Manual Runs with its default.
			credentialDefaults: true,
			inputItems: [person],
			mode: 'manual',
		});
		expect(run.error).toBeUndefined();
		expect(run.output('Create lead')[0].json).toMatchObject({ dryRun: true, written: false });
		expect(run.output('New lead?', 0)).toEqual([]);
		expect(run.output('Dry run?', 0)).toHaveLength(1);
		expect(ran(run, 'Add to routine')).toBe(false);
		expect(sandbox.control.requests().filter((request) => request.kind === 'write').length).toBe(writesBefore);
		expect(leadsWithEmail(email)).toEqual([]);
	});

	it('lead-capture-form.json sent for a lead that exists: Dry run? lets it end silently, as a public form must', async () => {
		const email = 'edu.costa@costa.example.com';
		await existingLead('Edu Costa', 'Costa Ltda', email);
		const run = await capture('lead-capture-form.json', { Name: 'Edu Costa', Company: 'Other', 'E-mail': email, Phone: '' });
		expect(run.error).toBeUndefined();
		expect(run.output('Create lead')[0].json).toMatchObject({ leadOutcome: 'found' });
		expect(run.output('Dry run?', 0)).toEqual([]);
		expect(run.output('Dry run?', 1)).toHaveLength(1);
	});

	it('lead-capture.json with no contact: no lead, and the execution fails for the workflow owner to see', async () => {
		const before = sandbox.control.leads().length;
		const run = await capture('lead-capture.json', { body: { name: 'Sem Contato', company: 'Nada' } });
		expect(String(run.error?.message)).toContain('at least one contact');
		expect(ran(run, 'Add to routine')).toBe(false);
		expect(sandbox.control.leads().length).toBe(before);
	});

	it('lead-capture-form.json asks for the e-mail in the form itself', () => {
		const trigger = example('lead-capture-form.json').nodes.find((node) => node.name === 'Lead form')!;
		const fields = (trigger.parameters.formFields as { values: Array<{ fieldLabel: string; requiredField?: boolean }> }).values;
		expect(fields.find((field) => field.fieldLabel === 'E-mail')?.requiredField).toBe(true);
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
	it("the MCP server's add_lead_to_routine says adding may start a prospection, as the service does only sometimes", () => {
		const tool = example('mcp/prospecting-mcp-server.json').nodes.find((node) => node.name === 'add_lead_to_routine')!;
		const description = String(tool.parameters.toolDescription);
		expect(description).toMatch(/may start a prospection/);
		expect(description).not.toMatch(/which starts a prospection/);
	});

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
