/**
 * Prepares a running n8n for the Prospecting package: owner account, a `Prospecting API` credential pointing at
 * the sandbox (or any base URL), and workflows imported from JSON files with their credential references and the
 * routine to add leads to filled in. Shared by `npm run demo` and the end-to-end suite.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { N8nClient, Owner, StoredWorkflow, WorkflowJson } from './n8n-client';

export const CREDENTIAL_TYPE = 'prospectingApi';
export const CREDENTIAL_NAME = 'Prospecting API';

export const DEMO_OWNER: Owner = {
	email: 'demo@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Prospecting-demo-1',
};

/** Signs in, creating the owner account on a fresh user folder. */
export async function ensureOwner(client: N8nClient, owner: Owner = DEMO_OWNER): Promise<void> {
	if (await client.needsOwnerSetup()) await client.setupOwner(owner);
	else await client.login(owner.email, owner.password);
}

/** Creates the credential, or points the existing one (same name) at the given service. */
export async function ensureCredential(
	client: N8nClient,
	data: {
		baseUrl: string;
		apiKey: string;
		readsPerWindow?: number;
		writesPerWindow?: number;
		rateLimitWindowSeconds?: number;
		clientsSharingKey?: number;
	},
	name = CREDENTIAL_NAME,
): Promise<{ id: string; name: string; type: string }> {
	const existing = (await client.listCredentials()).find((c) => c.name === name && c.type === CREDENTIAL_TYPE);
	if (existing) {
		await client.updateCredential(existing.id, name, CREDENTIAL_TYPE, data);
		return existing;
	}
	return await client.createCredential(name, CREDENTIAL_TYPE, data);
}

export function readWorkflowFiles(directory: string): Array<{ file: string; workflow: WorkflowJson }> {
	return readdirSync(directory)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as WorkflowJson }));
}

export interface WorkflowBindings {
	credential: { id: string; name: string };
	/** Routine used where a workflow's routine locator is left empty (the user picks one in the editor). */
	routineId?: string;
}

/** A copy of the workflow bound to this instance's credential (and routine, where none is chosen). */
export function bindWorkflow(workflow: WorkflowJson, bindings: WorkflowBindings): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	for (const node of copy.nodes) {
		const credentials = node.credentials as Record<string, { id?: string; name?: string }> | undefined;
		if (credentials?.[CREDENTIAL_TYPE]) {
			credentials[CREDENTIAL_TYPE] = { id: bindings.credential.id, name: bindings.credential.name };
		}
		const routine = node.parameters?.routineId as { __rl?: boolean; value?: unknown; mode?: string } | undefined;
		if (routine?.__rl && (routine.value === '' || routine.value === undefined) && bindings.routineId) {
			node.parameters!.routineId = { __rl: true, mode: 'id', value: bindings.routineId };
		}
	}
	return copy;
}

export interface ImportedWorkflow {
	file: string;
	workflow: StoredWorkflow;
	activated: boolean;
}

/** Imports every workflow (skipping names already present) and activates those that ask to be active. */
export async function importWorkflows(
	client: N8nClient,
	files: Array<{ file: string; workflow: WorkflowJson }>,
	bindings: WorkflowBindings,
	options: { activate: (workflow: WorkflowJson) => boolean },
): Promise<ImportedWorkflow[]> {
	const existing = await client.listWorkflows();
	const imported: ImportedWorkflow[] = [];
	for (const { file, workflow } of files) {
		const present = existing.find((w) => w.name === workflow.name);
		const stored = present ? await client.getWorkflow(present.id) : await client.createWorkflow(bindWorkflow(workflow, bindings));
		let activated = stored.active;
		if (!activated && options.activate(workflow)) {
			await client.activateWorkflow(stored.id, stored.versionId);
			activated = true;
		}
		imported.push({ file, workflow: stored, activated });
	}
	return imported;
}

/** Production URL of a Webhook node (path parameter) on this instance. */
export function webhookUrl(n8nUrl: string, workflow: WorkflowJson, nodeName: string): string {
	const node = workflow.nodes.find((n) => n.name === nodeName);
	const webhookPath = node?.parameters?.path;
	if (typeof webhookPath !== 'string') throw new Error(`Workflow "${workflow.name}" has no Webhook node "${nodeName}" with a path`);
	return `${n8nUrl}/webhook/${webhookPath}`;
}

/** Production URL of a Form Trigger node (its Form Path option, else its webhook id) on this instance. */
export function formUrl(n8nUrl: string, workflow: WorkflowJson, nodeName: string): string {
	const node = workflow.nodes.find((n) => n.name === nodeName);
	const options = node?.parameters?.options as { path?: unknown } | undefined;
	const formPath = typeof options?.path === 'string' && options.path ? options.path : node?.webhookId;
	if (typeof formPath !== 'string') throw new Error(`Workflow "${workflow.name}" has no Form Trigger node "${nodeName}"`);
	return `${n8nUrl}/form/${formPath}`;
}
