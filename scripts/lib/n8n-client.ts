/**
 * The part of n8n's internal REST API (the one its editor uses, under /rest) that setting up and checking an
 * instance needs: owner account, credentials and their test, workflows and their activation, executions and their stop.
 * Authentication is the editor's: the n8n-auth cookie issued by owner setup or login.
 *
 * n8n 2.41.1 and 1.123.81 share these paths and bodies (read from the REST controllers of both),
 * but for one: 2.x applies activation through its publication outbox and reports it at
 * /rest/workflows/:id/publication-status, where 1.x activates within the POST /activate call itself and has no
 * such path. The client reads n8n's version from the package folder it is given and waits the right way.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { n8nMajor } from './n8n-versions';

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<Record<string, unknown> & { name: string; type: string; parameters?: Record<string, unknown> }>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface StoredWorkflow extends WorkflowJson {
	id: string;
	versionId: string;
	active: boolean;
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
}

export interface NodeRunData {
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
	error?: { message?: string; description?: string };
	executionStatus?: string;
}

export interface ExecutionDetail extends ExecutionSummary {
	/** The raw execution data as stored (flatted), for scans. */
	rawData: string;
	data: {
		resultData: { runData: Record<string, NodeRunData[]>; error?: { message?: string }; lastNodeExecuted?: string };
	};
}

/** What n8n answers a stop with. */
export interface StoppedExecution {
	mode: string;
	startedAt: string;
	stoppedAt?: string;
	finished: boolean;
	status: string;
}

export interface PublicationStatus {
	status: 'published' | 'not_published' | 'in_progress' | 'partial' | 'failed';
	liveVersionId: string | null;
	pendingVersionId: string | null;
	triggers: Array<{ nodeId: string; status: string; errorMessage?: string | null }>;
}

export class N8nRestError extends Error {
	constructor(
		readonly status: number,
		readonly body: string,
		message: string,
	) {
		super(message);
	}
}

export class N8nClient {
	private cookie = '';

	private readonly flatted: { parse(text: string): unknown };

	/** The version of the n8n this client talks to (from its package.json), e.g. "2.41.1". */
	readonly n8nVersion: string;

	constructor(
		readonly baseUrl: string,
		/** n8n's package folder: execution data is stored in n8n's flatted format, read with n8n's own flatted. */
		n8nPackageDir: string,
	) {
		const requireFromN8n = createRequire(path.join(n8nPackageDir, 'package.json'));
		this.flatted = requireFromN8n('flatted') as { parse(text: string): unknown };
		this.n8nVersion = (JSON.parse(readFileSync(path.join(n8nPackageDir, 'package.json'), 'utf8')) as { version: string }).version;
	}

	/** Whether n8n applies activation through its publication outbox (2.x) rather than within the REST call (1.x). */
	get publishesThroughOutbox(): boolean {
		return n8nMajor(this.n8nVersion) >= 2;
	}

	async request<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}${urlPath}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(120_000),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		for (const line of setCookie) {
			const match = /^n8n-auth=([^;]*)/.exec(line);
			if (match) this.cookie = `n8n-auth=${match[1]}`;
		}
		const text = await response.text();
		if (!response.ok) {
			throw new N8nRestError(response.status, text, `${method} ${urlPath} answered ${response.status}: ${text.slice(0, 500)}`);
		}
		if (!text) return undefined as T;
		const parsed = JSON.parse(text) as { data?: T };
		return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
	}

	/** First start of a user folder: creates the owner account (and signs in). */
	async setupOwner(owner: Owner): Promise<void> {
		await this.request('POST', '/rest/owner/setup', owner);
	}

	async login(email: string, password: string): Promise<void> {
		await this.request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	/** Whether the instance still waits for its owner account (a fresh user folder). */
	async needsOwnerSetup(): Promise<boolean> {
		const settings = await this.request<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>('GET', '/rest/settings');
		return settings.userManagement?.showSetupOnFirstLoad === true;
	}

	async nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[] }>> {
		return await this.request('GET', '/types/nodes.json');
	}

	async credentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return await this.request('GET', '/types/credentials.json');
	}

	async listCredentials(): Promise<Array<{ id: string; name: string; type: string }>> {
		return await this.request('GET', '/rest/credentials');
	}

	async createCredential(name: string, type: string, data: Record<string, unknown>): Promise<{ id: string; name: string; type: string }> {
		return await this.request('POST', '/rest/credentials', { name, type, data });
	}

	async updateCredential(id: string, name: string, type: string, data: Record<string, unknown>): Promise<void> {
		await this.request('PATCH', `/rest/credentials/${id}`, { name, type, data });
	}

	/**
	 * The editor's "Test" button: n8n runs the credential type's test request. Like the editor, it sends the stored
	 * data as n8n returns it (secrets redacted); n8n puts the real secrets back before testing.
	 */
	async testCredential(credential: { id: string; name: string; type: string }): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const stored = await this.request<{ data?: Record<string, unknown> }>('GET', `/rest/credentials/${credential.id}?includeData=true`);
		return await this.request('POST', '/rest/credentials/test', {
			credentials: { id: credential.id, name: credential.name, type: credential.type, data: stored.data ?? {} },
		});
	}

	async listWorkflows(): Promise<Array<{ id: string; name: string; active: boolean }>> {
		return await this.request('GET', '/rest/workflows');
	}

	async createWorkflow(workflow: WorkflowJson): Promise<StoredWorkflow> {
		// n8n assigns the id; activation is a separate step (activateWorkflow). n8n 1.x stores the body's `active`
		// as it is (a workflow without it is refused by the database); 2.x derives it from the published version.
		const body: Record<string, unknown> = { settings: {}, ...workflow };
		delete body.id;
		delete body.active;
		if (!this.publishesThroughOutbox) body.active = false;
		return await this.request('POST', '/rest/workflows', body);
	}

	async getWorkflow(id: string): Promise<StoredWorkflow> {
		return await this.request('GET', `/rest/workflows/${id}`);
	}

	/**
	 * Activates ("publishes", in 2.x) the given version: its triggers and webhooks go live. n8n 2.x applies it
	 * through its publication outbox, shortly after this call returns; by default this waits until n8n reports the
	 * workflow published (webhooks served, trigger webhooks registered), or fails with n8n's error. n8n 1.x
	 * activates within the call and answers n8n's error (a trigger's failed webhook creation) directly.
	 */
	async activateWorkflow(id: string, versionId?: string, options: { wait?: boolean } = {}): Promise<StoredWorkflow> {
		const version = versionId ?? (await this.getWorkflow(id)).versionId;
		const result = await this.request<StoredWorkflow>('POST', `/rest/workflows/${id}/activate`, { versionId: version });
		if (options.wait !== false) await this.waitForPublication(id, 'published');
		return result;
	}

	/** Unpublishes the workflow; by default waits until n8n has taken its triggers down (remote webhooks deleted). */
	async deactivateWorkflow(id: string, options: { wait?: boolean } = {}): Promise<StoredWorkflow> {
		const result = await this.request<StoredWorkflow>('POST', `/rest/workflows/${id}/deactivate`, {});
		if (options.wait !== false) await this.waitForPublication(id, 'not_published');
		return result;
	}

	/** n8n 2.x's publication status; on 1.x, the same shape built from the workflow's active version. */
	async publicationStatus(id: string): Promise<PublicationStatus> {
		if (this.publishesThroughOutbox) return await this.request('GET', `/rest/workflows/${id}/publication-status`);
		const workflow = await this.request<StoredWorkflow & { activeVersionId?: string | null }>('GET', `/rest/workflows/${id}`);
		return {
			status: workflow.active ? 'published' : 'not_published',
			liveVersionId: workflow.active ? (workflow.activeVersionId ?? workflow.versionId) : null,
			pendingVersionId: null,
			triggers: [],
		};
	}

	async waitForPublication(id: string, wanted: 'published' | 'not_published', timeoutMs = 90_000): Promise<PublicationStatus> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const status = await this.publicationStatus(id);
			if (status.status === wanted) return status;
			if (wanted === 'published' && (status.status === 'failed' || status.status === 'partial')) {
				const reasons = status.triggers.map((t) => t.errorMessage).filter(Boolean).join('; ');
				throw new Error(`n8n could not publish workflow ${id}: ${reasons || status.status}`);
			}
			if (Date.now() > deadline) throw new Error(`Workflow ${id} is still "${status.status}" after ${timeoutMs / 1000} s`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	async deleteWorkflow(id: string): Promise<void> {
		await this.request('POST', `/rest/workflows/${id}/archive`, {});
		await this.request('DELETE', `/rest/workflows/${id}`);
	}

	/**
	 * The editor's Execute workflow (POST /rest/workflows/:id/run, mode 'manual') on the saved workflow, from the named
	 * trigger. Needs no push connection. A Manual Trigger starts at once ({ executionId }); a Webhook trigger answers
	 * { waitingForWebhook: true } and runs when its test URL (/webhook-test/...) is called. n8n 2.x runs the saved
	 * workflow; n8n 1.x runs the `workflowData` of the body, which 2.x ignores.
	 */
	async runManually(id: string, triggerName: string): Promise<{ executionId?: string; waitingForWebhook?: boolean }> {
		const workflow = await this.getWorkflow(id);
		// The editor always sends pinned data as an object; n8n 1.x stores a workflow without any as null, and its test
		// webhook then fails reading the last node's pinned data.
		const workflowData = { ...workflow, pinData: (workflow as { pinData?: unknown }).pinData ?? {} };
		return await this.request('POST', `/rest/workflows/${id}/run`, { workflowData, triggerToStartFrom: { name: triggerName } });
	}

	/**
	 * Waits until the execution has finished (any status but new / running / waiting) and its run data is saved, and
	 * returns it. n8n 1.x can report the final status a moment before the run data is readable.
	 */
	async waitForExecution(id: string, timeoutMs = 60_000): Promise<ExecutionDetail> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			try {
				const execution = await this.getExecution(id);
				const finished = !['new', 'running', 'waiting'].includes(execution.status) && execution.data?.resultData !== undefined;
				if (finished || Date.now() > deadline) return execution;
			} catch (error) {
				if (!(error instanceof N8nRestError && error.status === 404) || Date.now() > deadline) throw error;
			}
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/**
	 * The editor's and the executions list's Stop (POST /rest/executions/:id/stop, the same in 2.41.1 and 1.123.81):
	 * n8n cancels the running execution (its nodes' cancel signal is aborted before this answers) and records it as
	 * canceled. Answers n8n's view of the stopped execution; a finished execution is refused.
	 */
	async stopExecution(id: string): Promise<StoppedExecution> {
		return await this.request('POST', `/rest/executions/${id}/stop`, {});
	}

	async listExecutions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const result = await this.request<{ results: ExecutionSummary[] }>('GET', `/rest/executions?filter=${filter}&limit=100`);
		return result.results;
	}

	async getExecution(id: string): Promise<ExecutionDetail> {
		const raw = await this.request<ExecutionSummary & { data: string }>('GET', `/rest/executions/${id}`);
		return { ...raw, rawData: raw.data, data: this.flatted.parse(raw.data) as ExecutionDetail['data'] };
	}

	/** Waits until the workflow has at least `count` finished executions; returns them newest first. */
	async waitForExecutions(workflowId: string, count: number, timeoutMs = 30_000): Promise<ExecutionSummary[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const executions = (await this.listExecutions(workflowId)).filter((e) => e.status !== 'running' && e.status !== 'new');
			if (executions.length >= count || Date.now() > deadline) return executions;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}
}

/** Items a node output on its first run (main output `outputIndex`). */
export function nodeOutput(execution: ExecutionDetail, nodeName: string, outputIndex = 0): Array<Record<string, unknown>> {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs?.length) return [];
	return (runs[0].data?.main?.[outputIndex] ?? []).map((item) => item.json);
}
