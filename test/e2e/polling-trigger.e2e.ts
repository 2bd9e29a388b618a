/**
 * The Prospecting Polling Trigger in a real n8n 2.41.1, on its own instance: two workflows polled every minute
 * (the shortest interval n8n accepts), one for New Lead and one for Prospection Status Changed to Won. A lead
 * created and a prospection won in the sandbox each start exactly one execution, and a further poll starts none.
 */
import { randomUUID } from 'node:crypto';

import type { StoredWorkflow, WorkflowJson } from '../../scripts/lib/n8n-client';
import { nodeOutput } from '../../scripts/lib/n8n-client';
import { bindWorkflow } from '../../scripts/lib/instance-setup';
import { useE2eInstance } from './support/instance';

const e2e = useE2eInstance();

const TRIGGER = 'Prospecting Polling Trigger';

function pollingWorkflow(name: string, parameters: Record<string, unknown>): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: TRIGGER,
				type: 'n8n-nodes-prospecting.prospectingPollTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
				credentials: { prospectingApi: { id: '', name: 'Prospecting API' } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

async function activate(workflow: WorkflowJson): Promise<StoredWorkflow> {
	const stored = await e2e.client.createWorkflow(bindWorkflow(workflow, { credential: e2e.credential }));
	await e2e.client.activateWorkflow(stored.id, stored.versionId);
	await e2e.client.waitForPublication(stored.id, 'published');
	return stored;
}

async function sleep(ms: number) {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

test('a new lead and a won prospection each start exactly one execution', async () => {
	const leads = await activate(pollingWorkflow('Polling: new lead', { event: 'newLead' }));
	const won = await activate(
		pollingWorkflow('Polling: prospection won', { event: 'prospectionStatusChanged', statuses: ['WON'] }),
	);
	// The poll n8n runs on activation sets the starting point and emits nothing old.
	await sleep(3000);
	expect(await e2e.client.listExecutions(leads.id)).toHaveLength(0);
	expect(await e2e.client.listExecutions(won.id)).toHaveLength(0);

	const response = await fetch(`${e2e.sandbox.url}/api/v1/leads?apiKey=${e2e.sandbox.apiKey}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Polled Lead', company: 'Sondagem SA', emails: [{ value: 'polled@example.com', label: 'work' }] }),
	});
	expect(response.status).toBeLessThan(300);
	const lead = (await response.json()) as { id: string };
	const target = e2e.sandbox.control.prospections().find((p) => p.status === 'IN_PROGRESS')!;
	await e2e.sandbox.control.setProspectionStatus(target.id, 'WON');

	// Polled once a minute: within about two minutes each workflow has run.
	const leadRuns = await e2e.client.waitForExecutions(leads.id, 1, 130_000);
	const wonRuns = await e2e.client.waitForExecutions(won.id, 1, 130_000);
	expect(leadRuns).toHaveLength(1);
	expect(wonRuns).toHaveLength(1);
	const leadItems = nodeOutput(await e2e.client.getExecution(leadRuns[0].id), TRIGGER);
	expect(leadItems.map((item) => item.id)).toEqual([lead.id]);
	const wonItems = nodeOutput(await e2e.client.getExecution(wonRuns[0].id), TRIGGER);
	expect(wonItems.map((item) => [item.id, item.status])).toEqual([[target.id, 'WON']]);

	// A further poll (a minute later) finds nothing new: still one execution each.
	await sleep(65_000);
	expect(await e2e.client.listExecutions(leads.id)).toHaveLength(1);
	expect(await e2e.client.listExecutions(won.id)).toHaveLength(1);
}, 420_000);
