/** The record pickers (list mode of Lead, Prospection, Webhook and Routine), run through n8n-core's LoadOptionsContext as the editor does. */
import type { INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import {
	searchLeads,
	searchProspections,
	searchRoutines,
	searchWebhooks,
} from '../../nodes/Prospecting/methods/listSearch';
import { nodeTypes } from '../../dev/harness';
import { NODE_NAME, prospectingNamed } from './support';
import { createAdditionalData, nextExecutionId } from '../../dev/harness/engine';
import { useSandbox } from '../support/sandbox';
import { existingWebhook } from '../support/service';

const LEADS = 150;
const PROSPECTIONS = 40;

const { sandbox, connection } = useSandbox({
		rateLimit: false,
		dataset: { leads: LEADS, routines: 7, prospections: PROSPECTIONS },
	});

function loadOptionsContext(parameters: INode['parameters'], path: string): LoadOptionsContext {
	const node = prospectingNamed(NODE_NAME, parameters, 2);
	const workflow = new Workflow({
		id: 'list-search',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const additionalData = createAdditionalData({
		executionId: nextExecutionId(),
		mode: 'manual',
		workflowData: {
			id: 'list-search',
			name: 'list-search',
			nodes: [node],
			connections: {},
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		},
		credentials: { prospectingApi: connection },
	});
	return new LoadOptionsContext(workflow, node, additionalData, path);
}

const routinePicker = () =>
	loadOptionsContext({ resource: 'routine', operation: 'addLead' }, 'parameters.routineId');
const leadPicker = () =>
	loadOptionsContext({ resource: 'routine', operation: 'addLead' }, 'parameters.leadId');
const prospectionPicker = () =>
	loadOptionsContext(
		{ resource: 'prospection', operation: 'getActivities' },
		'parameters.prospectionId',
	);
const webhookPicker = () =>
	loadOptionsContext({ resource: 'webhook', operation: 'delete' }, 'parameters.webhookId');

function requestsTo(path: string) {
	return sandbox.control.requests().filter((request) => request.path === `/api/v1${path}`);
}

const newestFirst = <T extends { createdAt: string }>(records: T[]) =>
	[...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

describe('Lead picker', () => {
	it('sends the typed text to the service search and reads one page for it', async () => {
		const target = sandbox.control.leads().find((lead) => lead.emails.length > 0)!;
		const result = await searchLeads.call(leadPicker(), target.emails[0].value);
		expect(result.results).toEqual([
			{
				name: `${target.name} — ${target.emails[0].value} (${target.company})`,
				value: target.id,
			},
		]);
		const requests = requestsTo('/leads');
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toMatchObject({
			search: target.emails[0].value,
			page: '1',
			limit: '100',
		});
	});

	it('finds leads by company name, as the service search does', async () => {
		const company = sandbox.control.leads()[5].company;
		const result = await searchLeads.call(leadPicker(), company);
		const expected = sandbox.control.leads().filter((lead) => lead.company === company);
		expect(result.results.map((entry) => entry.value).sort()).toEqual(
			expected.map((lead) => lead.id).sort(),
		);
		expect(result.results.every((entry) => entry.name.endsWith(`(${company})`))).toBe(true);
	});

	it('lists every lead newest first, one page per scroll, with the next page as pagination token', async () => {
		const first = await searchLeads.call(leadPicker());
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe(2);
		const second = await searchLeads.call(leadPicker(), undefined, first.paginationToken as string);
		expect(second.results).toHaveLength(LEADS - 100);
		expect(second.paginationToken).toBeUndefined();
		expect([...first.results, ...second.results].map((entry) => entry.value)).toEqual(
			newestFirst(sandbox.control.leads()).map((lead) => lead.id),
		);
		expect(requestsTo('/leads').map((request) => request.query.page)).toEqual(['1', '2']);
	});

	it('names a lead without an email by its mobile or phone', async () => {
		const target = sandbox.control
			.leads()
			.find((lead) => lead.emails.length === 0 && lead.mobiles.length > 0)!;
		const result = await searchLeads.call(leadPicker(), target.mobiles[0].value);
		expect(result.results).toContainEqual({
			name: `${target.name} — ${target.mobiles[0].value} (${target.company})`,
			value: target.id,
		});
	});

	it('waits out a spent read budget instead of failing', async () => {
		sandbox.control.setRateLimit({ enabled: true, readLimit: 1, windowSeconds: 1 });
		let first, second;
		try {
			first = await searchLeads.call(leadPicker(), 'a');
			second = await searchLeads.call(leadPicker(), 'an');
		} finally {
			sandbox.control.setRateLimit({ enabled: false });
		}
		expect(first.results.length).toBeGreaterThan(0);
		expect(second.results.length).toBeGreaterThan(0);
		expect(requestsTo('/leads').filter((request) => request.status === 200)).toHaveLength(2);
	});
});

describe('Prospection picker', () => {
	const statusNames: Record<string, string> = {
		IN_PROGRESS: 'In Progress (Em Andamento)',
		FROZEN: 'Frozen (Congelada)',
		WON: 'Won (Ganha)',
		LOST: 'Lost (Perdida)',
	};

	it('lists prospections newest first, named by lead, status and date', async () => {
		const result = await searchProspections.call(prospectionPicker());
		expect(result.results).toEqual(
			newestFirst(sandbox.control.prospections()).map((prospection) => ({
				name: `Lead ${prospection.leadId} · ${statusNames[prospection.status]} · ${prospection.createdAt.slice(0, 10)}`,
				value: prospection.id,
			})),
		);
		expect(result.paginationToken).toBeUndefined();
		const requests = requestsTo('/prospections');
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toMatchObject({ orderBy: 'createdAt', orderDirection: 'desc' });
	});

	it('keeps the prospections whose lead, status or date holds the typed text', async () => {
		const leadId = sandbox.control.prospections()[3].leadId;
		const result = await searchProspections.call(prospectionPicker(), leadId.toUpperCase());
		const expected = sandbox.control.prospections().filter((p) => p.leadId === leadId);
		expect(result.results.map((entry) => entry.value).sort()).toEqual(
			expected.map((p) => p.id).sort(),
		);
		const won = await searchProspections.call(prospectionPicker(), 'ganha');
		expect(won.results.map((entry) => entry.value).sort()).toEqual(
			sandbox.control
				.prospections()
				.filter((p) => p.status === 'WON')
				.map((p) => p.id)
				.sort(),
		);
		expect(requestsTo('/prospections')).toHaveLength(2);
	});
});

describe('Webhook picker', () => {
	it('lists every webhook by name and URL with one read, and filters by the typed text', async () => {
		await existingWebhook(sandbox, { name: 'Ganhos para o CRM', url: 'https://crm.example.com/hooks/won' });
		await existingWebhook(sandbox, { name: 'Perdidos', url: 'https://sheet.example.com/lost' });
		const webhooks = sandbox.control.webhooks();
		const all = await searchWebhooks.call(webhookPicker());
		expect(all.results).toEqual(
			webhooks.map((webhook) => ({ name: `${webhook.name} — ${webhook.url}`, value: webhook.id })),
		);
		expect(all.paginationToken).toBeUndefined();
		const crm = await searchWebhooks.call(webhookPicker(), 'crm.example');
		expect(crm.results.map((entry) => entry.name)).toEqual([
			'Ganhos para o CRM — https://crm.example.com/hooks/won',
		]);
		const reads = requestsTo('/webhooks').filter((request) => request.method === 'GET');
		expect(reads).toHaveLength(2);
		expect(reads.every((request) => request.query.page === undefined)).toBe(true);
	});
});

describe('Routine picker', () => {
	it('lists every routine by name with its id as value', async () => {
		const result = await searchRoutines.call(routinePicker());
		const expected = sandbox.control
			.routines()
			.map((routine) => ({ name: routine.name, value: routine.id }));
		expect(result.results).toEqual(expected);
		expect(result.paginationToken).toBeUndefined();
		expect(requestsTo('/routines')).toHaveLength(1);
	});

	it('filters by the typed text, in the name or the id', async () => {
		const target = sandbox.control.routines()[2];
		const typed = target.name.slice(0, 5);
		const result = await searchRoutines.call(routinePicker(), typed.toUpperCase());
		const expected = sandbox.control
			.routines()
			.filter((routine) => routine.name.toLowerCase().includes(typed.toLowerCase()))
			.map((routine) => routine.id);
		expect(result.results.map((entry) => entry.value)).toEqual(expected);
		expect(expected).toContain(target.id);
	});
});
