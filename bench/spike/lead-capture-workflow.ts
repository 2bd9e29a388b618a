/**
 * The workflow a spike hits: the package's own lead-capture example (n8n's Webhook node, POST → Lead Create with
 * Skip If Exists → Routine Add Lead → a summary), bound to the bench's credential and routine, on its own path.
 *
 * The Webhook node answers Immediately (onReceived): a form or landing page must not keep its visitor waiting while
 * the rate limit spaces the writes out (a spike of 1,000 posts takes minutes), and in queue mode the webhook
 * processor then only queues the execution. Completion is read from the service's store and n8n's executions.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { bindWorkflow } from '../../scripts/lib/instance-setup';
import type { WorkflowJson } from '../../scripts/lib/n8n-client';
import { repoRoot } from '../../scripts/lib/provision';

export const FORM_NODE = 'Lead form';

export function leadCaptureWorkflow(webhookPath: string, credential: { id: string; name: string }, routineId: string): WorkflowJson {
	const example = JSON.parse(readFileSync(path.join(repoRoot, 'examples', 'lead-capture.json'), 'utf8')) as WorkflowJson;
	const workflow = bindWorkflow(example, { credential, routineId });
	const form = workflow.nodes.find((node) => node.name === FORM_NODE);
	if (!form?.parameters) throw new Error(`examples/lead-capture.json has no "${FORM_NODE}" node`);
	form.parameters = { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} };
	form.webhookId = `${webhookPath}-id`;
	return { ...workflow, name: `Spike bench: lead capture (${webhookPath})` };
}
