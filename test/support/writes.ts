/**
 * The node's four writes (Lead Create, Routine Add Lead, Webhook Create, Webhook Delete), each ready to run against a
 * sandbox: the node's parameters, the request it sends, and whether the service's data shows it written. The Dry Run
 * suites, in process and in a real n8n, run each of them in every kind of run.
 */
import { randomUUID } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

import type { RunningSandbox } from '../../sandbox';
import { existingWebhook } from './service';

export interface Write {
	name: string;
	method: string;
	/** The node's parameters and the request they send (path under /api/v1, JSON body); may prepare the sandbox. */
	prepare(): Promise<{ parameters: INodeParameters; path: string; body: INodeParameters | null }>;
	/** Whether the service's data shows the write done. */
	written(parameters: INodeParameters): boolean;
}

/** The four writes against the sandbox `service()` returns (read when a write is prepared or checked). */
export function theFourWrites(service: () => RunningSandbox): Write[] {
	const control = () => service().control;
	return [
		{
			name: 'Lead Create',
			method: 'POST',
			async prepare() {
				const email = `ana.${randomUUID()}@example.com`;
				return {
					parameters: { resource: 'lead', operation: 'create', name: 'Ana Seca', email },
					path: '/leads',
					body: { name: 'Ana Seca', emails: [{ value: email, label: 'Principal' }] },
				};
			},
			written: (parameters) => control().leads().some((lead) => lead.emails.some((item) => item.value === parameters.email)),
		},
		{
			name: 'Routine Add Lead',
			method: 'POST',
			async prepare() {
				const routine = control().routines()[0];
				const lead = control().leads()[0];
				return {
					parameters: { resource: 'routine', operation: 'addLead', routineId: { __rl: true, mode: 'id', value: routine.id }, leadId: lead.id },
					path: `/routines/${routine.id}/lead`,
					body: { leadId: lead.id },
				};
			},
			written: () => control().requests().some((request) => request.kind === 'write' && request.status >= 200 && request.status < 300),
		},
		{
			name: 'Webhook Create',
			method: 'POST',
			async prepare() {
				const webhook = { name: 'Dry hook', url: 'https://example.com/dry', events: ['prospection.won'] };
				return { parameters: { resource: 'webhook', operation: 'create', ...webhook }, path: '/webhooks', body: webhook };
			},
			written: () => control().webhooks().some((webhook) => webhook.name === 'Dry hook'),
		},
		{
			name: 'Webhook Delete',
			method: 'DELETE',
			async prepare() {
				const id = await existingWebhook(service(), { name: 'To delete', url: 'https://example.com/hook' });
				return { parameters: { resource: 'webhook', operation: 'delete', webhookId: id }, path: `/webhooks/${id}`, body: null };
			},
			written: (parameters) => !control().webhooks().some((webhook) => webhook.id === parameters.webhookId),
		},
	];
}
