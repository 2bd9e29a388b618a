/**
 * Workflows saved with node version 1 keep running with the output they were built on. The examples as they
 * shipped with version 1 (test/fixtures/version-1/) run through n8n's engine against the sandbox: their
 * Prospecting nodes exactly as saved, started with the items their trigger would give, and their tools called
 * with the arguments a model would fill in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { executeWorkflow, PROSPECTING_NODE_TYPE, registerNodeType } from '../../dev/harness';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm } from '../../dev/harness/tool-form';
import { callSavedTool, prospectingPart, toolAnswer } from './support';
import type { SavedWorkflow } from './support';
import { useSandbox } from '../support/sandbox';

registerNodeType(PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm());

const FIXTURES = join(__dirname, '..', 'fixtures', 'version-1');
const OURS = [PROSPECTING_NODE_TYPE, PROSPECTING_TOOL_NODE_TYPE];

const fixture = (file: string) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as SavedWorkflow;

const { sandbox, connection } = useSandbox({
		rateLimit: false,
		dataset: { leads: 12, routines: 3, prospections: 40 },
	});

const credentials = () => ({ prospectingApi: connection });
const leadsWithEmail = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));

describe('the saved version-1 workflows', () => {
	it('are every example as it shipped with version 1, their Prospecting nodes still at version 1', () => {
		const files = readdirSync(FIXTURES).sort();
		expect(files).toEqual([
			'funnel-report.json',
			'lead-capture-form.json',
			'lead-capture.json',
			'prospecting-agent.json',
			'prospecting-mcp-server.json',
		]);
		for (const file of files) {
			const ours = fixture(file).nodes.filter((node) => OURS.includes(node.type));
			expect(ours.length).toBeGreaterThan(0);
			expect(ours.map((node) => [file, node.typeVersion])).toEqual(ours.map(() => [file, 1]));
		}
	});
});

describe('version 1 lead capture workflows run unchanged', () => {
	it('the form: creates the lead with its full contact lists, and adds it to the routine by the id it maps', async () => {
		const routine = sandbox.control.routines()[1];
		const person = { Name: 'Ivo Matos', Company: 'Matos SA', 'E-mail': 'ivo@matos.example.com', Phone: '' };
		const run = await executeWorkflow(prospectingPart(fixture('lead-capture-form.json'), routine), {
			credentials: credentials(),
			inputItems: [person],
			mode: 'trigger',
		});
		expect(run.error).toBeUndefined();
		const created = run.output('Create lead')[0].json;
		// The version-1 output: the lead as the service sends it, no simplified `email` field.
		expect(created).toMatchObject({ name: 'Ivo Matos', company: 'Matos SA' });
		expect(created.emails).toEqual([{ value: 'ivo@matos.example.com', label: 'Principal' }]);
		expect(created).not.toHaveProperty('email');
		expect(leadsWithEmail(person['E-mail'])).toHaveLength(1);
		expect(leadsWithEmail(person['E-mail'])[0].routineIds).toEqual([routine.id]);
		expect(run.output('Add to routine')).toHaveLength(1);
	});

	it('the form: a person without an e-mail or a phone goes to the error output with the text its page looks for', async () => {
		const run = await executeWorkflow(prospectingPart(fixture('lead-capture-form.json'), sandbox.control.routines()[0]), {
			credentials: credentials(),
			inputItems: [{ Name: 'Sem Contato', Company: 'Nada', 'E-mail': '', Phone: '' }],
			mode: 'trigger',
		});
		expect(run.error).toBeUndefined();
		expect(run.output('Create lead', 0)).toHaveLength(0);
		const [failed] = run.output('Create lead', 1);
		expect(String(failed.json.error)).toContain('at least one contact');
		expect(sandbox.control.requests().filter((request) => request.kind === 'write')).toHaveLength(0);
	});

	it('the webhook: a second post of the same contact gives the same lead once, in the routine', async () => {
		const routine = sandbox.control.routines()[2];
		const body = { name: 'Lia Nunes', company: 'Nunes ME', email: 'lia@nunes.example.com' };
		const workflow = prospectingPart(fixture('lead-capture.json'), routine);
		const first = await executeWorkflow(workflow, { credentials: credentials(), inputItems: [{ body }], mode: 'trigger' });
		expect(first.error).toBeUndefined();
		const created = first.output('Create lead')[0].json;
		expect(created).not.toHaveProperty('email');
		const second = await executeWorkflow(workflow, { credentials: credentials(), inputItems: [{ body }], mode: 'trigger' });
		expect(second.error).toBeUndefined();
		expect(second.output('Create lead')[0].json.id).toBe(created.id);
		expect(leadsWithEmail(body.email)).toHaveLength(1);
		expect(leadsWithEmail(body.email)[0].routineIds).toEqual([routine.id]);
	});
});

describe('the version 1 funnel report runs unchanged', () => {
	it('gives won, lost, decided and the rate its report reads', async () => {
		const run = await executeWorkflow(prospectingPart(fixture('funnel-report.json')), { credentials: credentials() });
		expect(run.error).toBeUndefined();
		const statuses = sandbox.control.prospections().map((prospection) => prospection.status);
		const won = statuses.filter((status) => status === 'WON').length;
		const lost = statuses.filter((status) => status === 'LOST').length;
		expect(won + lost).toBeGreaterThan(0);
		expect(run.output('Get conversion rate')[0].json).toEqual({
			won,
			lost,
			decided: won + lost,
			conversionRate: won / (won + lost),
		});
	});
});

const call = async (file: string, name: string, args: IDataObject) =>
	await callSavedTool(fixture(file), name, 1, args, sandbox);

describe('the version 1 AI agent tools answer as before', () => {
	const file = 'prospecting-agent.json';

	it('Lead Get Many finds a lead by e-mail and answers compact records (Simplify on)', async () => {
		const lead = sandbox.control.leads().find((candidate) => candidate.emails.length > 0)!;
		const found = toolAnswer(await call(file, 'Lead Get Many', { search: lead.emails[0].value, limit: 5 }));
		expect(found.map((record) => record.id)).toContain(lead.id);
		expect(found.find((record) => record.id === lead.id)!.emails).toEqual(lead.emails.map((item) => item.value));
	});

	it('Lead Create writes the lead, and Routine Add Lead adds it by the id the model passes', async () => {
		const email = 'teo@reis.example.com';
		const [created] = toolAnswer(await call(file, 'Lead Create', { name: 'Teo Reis', company: 'Reis', email, phone: '' }));
		expect(created).toMatchObject({ name: 'Teo Reis' });
		const routine = sandbox.control.routines()[0];
		const added = await call(file, 'Routine Add Lead', { routineId: routine.id, leadId: String(created.id) });
		expect(added.answer).not.toContain('error');
		expect(leadsWithEmail(email)).toHaveLength(1);
		expect(leadsWithEmail(email)[0].routineIds).toEqual([routine.id]);
	});

	it('Prospection Get Conversion Rate answers the counts', async () => {
		const [rate] = toolAnswer(await call(file, 'Prospection Get Conversion Rate', {}));
		expect(Object.keys(rate).sort()).toEqual(['conversionRate', 'decided', 'lost', 'won']);
	});
});

describe('the version 1 MCP server tools answer as before', () => {
	const file = 'prospecting-mcp-server.json';

	it('search_leads and list_prospections read; their bad arguments are raised as tool errors', async () => {
		const lead = sandbox.control.leads().find((candidate) => candidate.emails.length > 0)!;
		const found = toolAnswer(await call(file, 'search_leads', { search: lead.emails[0].value, limit: 5 }));
		expect(found.map((record) => record.id)).toContain(lead.id);
		const won = toolAnswer(await call(file, 'list_prospections', { status: 'WON', limit: 50 }));
		expect(won.length).toBeGreaterThan(0);
		expect(won.every((prospection) => prospection.status === 'WON')).toBe(true);
		const refused = await call(file, 'list_prospections', { status: 'SOMETIMES', limit: 5 });
		expect(refused.thrown).toContain('status');
	});

	it('create_lead and add_lead_to_routine stay dry runs, even in a production run', async () => {
		const [dryCreate] = toolAnswer(
			await call(file, 'create_lead', { name: 'Eva Dias', company: '', email: 'eva@dias.example.com', phone: '' }),
		);
		expect(dryCreate).toMatchObject({ dryRun: true, written: false });
		const routine = sandbox.control.routines()[0];
		const lead = sandbox.control.leads()[0];
		const [dryAdd] = toolAnswer(await call(file, 'add_lead_to_routine', { routineId: routine.id, leadId: lead.id }));
		expect(dryAdd).toMatchObject({ dryRun: true, written: false });
		expect(sandbox.control.requests().filter((request) => request.kind === 'write')).toHaveLength(0);
	});
});
