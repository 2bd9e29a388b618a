/** Runs a workflow the way its users do, through its Webhook node, and gives back the one execution that started. */
import type { ExecutionDetail, N8nClient, StoredWorkflow } from '../../../scripts/lib/n8n-client';
import { webhookUrl } from '../../../scripts/lib/instance-setup';

export interface WebhookCall {
	method?: 'GET' | 'POST';
	/** Sent as JSON. */
	body?: unknown;
	/** The Webhook node to call (default "Webhook"). */
	nodeName?: string;
	/** Sent as they are (a Header Auth credential's header, for one). */
	headers?: Record<string, string>;
}

/** Fails unless the call is answered 2xx and exactly one new execution finished successfully. */
export async function runByWebhook(
	n8n: { client: N8nClient; webhookBaseUrl: string },
	workflow: StoredWorkflow,
	call: WebhookCall = {},
): Promise<{ response: unknown; execution: ExecutionDetail }> {
	const { client } = n8n;
	const before = new Set((await client.listExecutions(workflow.id)).map((e) => e.id));
	const response = await fetch(webhookUrl(n8n.webhookBaseUrl, workflow, call.nodeName ?? 'Webhook'), {
		method: call.method ?? 'POST',
		headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
		body: call.body === undefined ? undefined : JSON.stringify(call.body),
	});
	const text = await response.text();
	const executions = await client.waitForExecutions(workflow.id, before.size + 1);
	const fresh = executions.filter((e) => !before.has(e.id));
	expect(fresh).toHaveLength(1);
	const execution = await client.getExecution(fresh[0].id);
	if (!response.ok || execution.status !== 'success') {
		throw new Error(
			`Workflow "${workflow.name}" answered ${response.status} (${text.slice(0, 800)}), execution ${execution.status}: ` +
				JSON.stringify(execution.data.resultData.error ?? {}).slice(0, 2000),
		);
	}
	return { response: text ? JSON.parse(text) : undefined, execution };
}
