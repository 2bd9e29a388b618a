/**
 * Single records picked from a list (version 2) and saved workflows with plain-text ids (version 1), run as
 * workflows against the sandbox.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INode } from 'n8n-workflow';

import { executeWorkflow } from '../../dev/harness';
import { PollWorkflowHandle } from '../../dev/harness/poll';
import { jsonOf, runNode, startNode } from './support';
import { useSandbox } from '../support/sandbox';
import { existingWebhook } from '../support/service';

const { sandbox, connection } = useSandbox({
		rateLimit: false,
		dataset: { leads: 20, routines: 4, prospections: 30, activitiesPerProspection: 2 },
	});

const version2 = () => ({ ...connection, typeVersion: 2 });

/** A value as the editor saves it when a record is picked from the list. */
const picked = (value: string, cachedResultName = value) => ({
	__rl: true,
	mode: 'list',
	value,
	cachedResultName,
});

function requestsTo(path: string) {
	return sandbox.control.requests().filter((request) => request.path === `/api/v1${path}`);
}

function leadOutsideRoutine(routineId: string) {
	return sandbox.control.leads().find((lead) => !lead.routineIds.includes(routineId))!;
}

describe('version 2: records picked from a list', () => {
	it('Routine → Add Lead adds the picked lead to the picked routine', async () => {
		const routine = sandbox.control.routines()[0];
		const lead = leadOutsideRoutine(routine.id);
		const run = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: picked(routine.id, routine.name),
				leadId: picked(lead.id, lead.name),
			},
			version2(),
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.control.leads().find((l) => l.id === lead.id)?.routineIds).toContain(routine.id);
		expect(requestsTo(`/routines/${routine.id}/lead`)).toHaveLength(1);
	});

	it('Routine → Add Lead takes a lead given By ID from an expression', async () => {
		const routine = sandbox.control.routines()[1];
		const lead = leadOutsideRoutine(routine.id);
		const run = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: routine.id },
				leadId: { __rl: true, mode: 'id', value: '={{ $json.lead }}' },
			},
			{ ...version2(), inputItems: [{ lead: lead.id }] },
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.control.leads().find((l) => l.id === lead.id)?.routineIds).toContain(routine.id);
	});

	it('Routine → Add Lead names the field when no lead is picked', async () => {
		const run = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: picked(sandbox.control.routines()[0].id),
				leadId: { __rl: true, mode: 'id', value: '={{ $json.missing }}' },
			},
			{ ...version2(), inputItems: [{}] },
		);
		expect(run.error?.message).toBe('leadId: a value is required (item 0)');
		expect(requestsTo(`/routines/${sandbox.control.routines()[0].id}/lead`)).toHaveLength(0);
	});

	it('Prospection → Get Activities lists the activities of the picked prospection', async () => {
		const prospection = sandbox.control.prospections()[4];
		const run = await runNode(
			{
				resource: 'prospection',
				operation: 'getActivities',
				prospectionId: picked(prospection.id),
				returnAll: true,
			},
			version2(),
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		expect(jsonOf(run.items).every((activity) => activity.prospectionId === prospection.id)).toBe(
			true,
		);
	});

	it('Prospection → Get Many and Get Conversion Rate keep to the picked lead', async () => {
		const leadId = sandbox.control.prospections()[0].leadId;
		const ofLead = sandbox.control.prospections().filter((p) => p.leadId === leadId);
		const many = await runNode(
			{
				resource: 'prospection',
				operation: 'getMany',
				returnAll: true,
				filters: { leadId: picked(leadId) },
			},
			version2(),
		);
		expect(many.error).toBeUndefined();
		expect(
			jsonOf(many.items)
				.map((p) => p.id)
				.sort(),
		).toEqual(ofLead.map((p) => p.id).sort());
		const rate = await runNode(
			{ resource: 'prospection', operation: 'getConversionRate', filters: { leadId: picked(leadId) } },
			version2(),
		);
		expect(rate.error).toBeUndefined();
		expect(rate.items[0].json).toMatchObject({
			won: ofLead.filter((p) => p.status === 'WON').length,
			lost: ofLead.filter((p) => p.status === 'LOST').length,
		});
		expect(requestsTo('/prospections').every((request) => request.query.leadId === leadId)).toBe(
			true,
		);
	});

	it('Webhook → Delete deletes the picked webhook', async () => {
		const keep = await existingWebhook(sandbox, { name: 'Fica', url: 'https://example.com/hook' });
		const remove = await existingWebhook(sandbox, { name: 'Sai', url: 'https://example.com/hook' });
		const run = await runNode(
			{ resource: 'webhook', operation: 'delete', webhookId: picked(remove, 'Sai') },
			version2(),
		);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id: remove, deleted: true });
		expect(sandbox.control.webhooks().map((webhook) => webhook.id)).toEqual([keep]);
	});

	it('the polling trigger watches the prospections of the picked lead', async () => {
		const leadId = sandbox.control.prospections()[0].leadId;
		const poll = new PollWorkflowHandle({
			typeVersion: 2,
			parameters: { event: 'newProspection', filters: { leadId: picked(leadId) } },
			credentials: { prospectingApi: connection },
		});
		const [newest] = await poll.poll('manual');
		expect(newest.leadId).toBe(leadId);
		expect(requestsTo('/prospections').every((request) => request.query.leadId === leadId)).toBe(
			true,
		);
	});
});

describe('version 1: saved workflows with plain-text ids run unchanged', () => {
	it('the version-1 lead capture example creates the lead and adds it to the routine by the id it maps', async () => {
		const example = JSON.parse(
			readFileSync(join(__dirname, '../fixtures/version-1/lead-capture.json'), 'utf8'),
		) as { nodes: INode[] };
		const routine = sandbox.control.routines()[2];
		const nodes = example.nodes
			.filter((node) => ['Create lead', 'Add to routine'].includes(node.name))
			.map((node) => ({
				...node,
				credentials: { prospectingApi: { id: '1', name: 'Prospecting account' } },
				parameters:
					node.name === 'Add to routine'
						? { ...node.parameters, routineId: picked(routine.id, routine.name) }
						: node.parameters,
			}));
		expect(nodes.map((node) => [node.name, node.typeVersion])).toEqual([
			['Create lead', 1],
			['Add to routine', 1],
		]);
		const run = await executeWorkflow(
			{
				nodes: [startNode, ...nodes],
				connections: {
					Start: { main: [[{ node: 'Create lead', type: 'main', index: 0 }]] },
					'Create lead': { main: [[{ node: 'Add to routine', type: 'main', index: 0 }]] },
				},
			},
			{
				credentials: { prospectingApi: connection },
				inputItems: [
					{ body: { name: 'Rita Prado', company: 'Prado ME', email: 'rita@prado.example.com' } },
				],
				mode: 'trigger',
			},
		);
		expect(run.error).toBeUndefined();
		const created = run.output('Create lead')[0].json;
		expect(created.emails).toEqual([{ value: 'rita@prado.example.com', label: 'Principal' }]);
		expect(created).not.toHaveProperty('email');
		const lead = sandbox.control.leads().find((l) => l.id === created.id)!;
		expect(lead.routineIds).toEqual([routine.id]);
	});

	it('Get Activities, Delete and the lead filter take plain-text ids and expressions', async () => {
		const prospection = sandbox.control.prospections()[6];
		const activities = await runNode(
			{
				resource: 'prospection',
				operation: 'getActivities',
				prospectionId: '={{ $json.prospection }}',
				returnAll: true,
			},
			{ ...connection, inputItems: [{ prospection: prospection.id }] },
		);
		expect(activities.error).toBeUndefined();
		expect(activities.items).toHaveLength(2);

		const many = await runNode(
			{
				resource: 'prospection',
				operation: 'getMany',
				returnAll: true,
				filters: { leadId: prospection.leadId },
			},
			connection,
		);
		expect(jsonOf(many.items).every((p) => p.leadId === prospection.leadId)).toBe(true);
		expect(many.items.length).toBeGreaterThan(0);

		const webhookId = await existingWebhook(sandbox, { name: 'Antigo', url: 'https://example.com/hook' });
		const deleted = await runNode({ resource: 'webhook', operation: 'delete', webhookId }, connection);
		expect(deleted.items[0].json).toMatchObject({ id: webhookId, deleted: true });
		expect(sandbox.control.webhooks()).toHaveLength(0);
	});

	it('the polling trigger keeps its plain-text lead filter', async () => {
		const leadId = sandbox.control.prospections()[1].leadId;
		const poll = new PollWorkflowHandle({
			parameters: { event: 'newProspection', filters: { leadId } },
			credentials: { prospectingApi: connection },
		});
		const [newest] = await poll.poll('manual');
		expect(newest.leadId).toBe(leadId);
		expect(requestsTo('/prospections').every((request) => request.query.leadId === leadId)).toBe(
			true,
		);
	});
});
