/**
 * Runs the Prospecting Trigger the way n8n does, in process:
 * - webhook methods (checkExists / create / delete) through n8n-core's HookContext, with the modes
 *   n8n uses (activation: 'trigger'/'activate'; "listen for test event": 'manual'/'manual';
 *   deactivation: 'internal'/'update'), against the sandbox over real HTTP;
 * - deliveries through a real HTTP receiver on 127.0.0.1 that reads the raw body as n8n's body
 *   parser does and calls webhook() through n8n-core's WebhookContext ('webhook' mode on the
 *   production URL, 'manual' on the test URL), answering as n8n's webhook helpers do for
 *   responseMode 'onReceived'; an emitted item then runs the workflow through WorkflowExecute.
 * One `TriggerWorkflow` keeps one n8n `Workflow` object, whose static data persists between calls
 * as the active workflow's does; `restarted()` reloads it from a JSON copy, as after an n8n restart.
 */
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowBase,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { createAdditionalData, ensureEngine, nextExecutionId, webhookBaseUrls } from '../../helpers/engine';
import type { WebhookBaseUrls } from '../../helpers/engine';
import { executeWorkflow, PROSPECTING_TRIGGER_NODE_TYPE, TestCredentialsHelper, nodeTypes } from '../../helpers';
import type { WorkflowRunResult } from '../../helpers';
import { withLogSink } from '../../helpers/log-capture';

export type HookMethod = 'checkExists' | 'create' | 'delete';

export interface ReceivedDelivery {
	/** Status the receiver answered. */
	status: number;
	/** Body the receiver answered, as text. */
	answer: string;
	test: boolean;
	/** Items the trigger emitted; undefined when it started nothing. */
	items?: INodeExecutionData[];
	/** The workflow run the items started. */
	run?: WorkflowRunResult;
	/** Thrown by webhook(), if anything (a crash; answered 500). */
	error?: Error;
}

interface Credentials {
	baseUrl: string;
	apiKey: string;
}

/** HTTP receiver standing in for n8n's webhook server: routes /webhook and /webhook-test paths. */
export class WebhookReceiver {
	readonly urls: WebhookBaseUrls;
	private readonly routes = new Map<string, TriggerWorkflow>();

	private constructor(
		private readonly server: http.Server,
		readonly baseUrl: string,
	) {
		this.urls = webhookBaseUrls(baseUrl);
	}

	static async start(): Promise<WebhookReceiver> {
		ensureEngine();
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}`);
		server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
			void receiver.handle(request, response);
		});
		return receiver;
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	/** Deliveries to a path go to the workflow registered for it (the latest activation wins, as in n8n). */
	route(path: string, workflow: TriggerWorkflow | undefined): void {
		if (workflow) this.routes.set(path, workflow);
		else this.routes.delete(path);
	}

	private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const path = new URL(request.url ?? '/', this.baseUrl).pathname;
		const workflow = this.routes.get(path);
		if (request.method !== 'POST' || workflow === undefined) {
			response.writeHead(404, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ message: 'The requested webhook is not registered' }));
			return;
		}
		await workflow.receive(request, response, Buffer.concat(chunks), path.startsWith('/webhook-test/'));
	}
}

/** The part of Node's ServerResponse the receiver and n8n's response helpers use. */
export interface PlainResponse {
	statusCode: number;
	headersSent: boolean;
	writableEnded: boolean;
	setHeader(name: string, value: string): unknown;
	writeHead(status: number, headers?: Record<string, string>): unknown;
	end(body?: string | Buffer): unknown;
}

/** A response kept in memory, for deliveries handed to webhook() without a socket. */
export class CapturedResponse implements PlainResponse {
	statusCode = 200;
	headersSent = false;
	writableEnded = false;
	body = '';
	readonly headers: Record<string, string> = {};

	setHeader(name: string, value: string) {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	writeHead(status: number, headers: Record<string, string> = {}) {
		this.statusCode = status;
		for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
		this.headersSent = true;
		return this;
	}

	end(body?: string | Buffer) {
		if (this.writableEnded) throw new Error('Response answered twice');
		this.body = body === undefined ? '' : body.toString();
		this.headersSent = true;
		this.writableEnded = true;
		return this;
	}
}

/** Express-style helpers n8n's nodes use on the response (status, json, send). */
function expressResponse(response: PlainResponse) {
	const res = response as PlainResponse & {
		status(code: number): typeof res;
		json(body: unknown): typeof res;
		send(body: unknown): typeof res;
	};
	res.status = (code: number) => {
		res.statusCode = code;
		return res;
	};
	res.json = (body: unknown) => {
		if (!res.headersSent) res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify(body));
		return res;
	};
	res.send = (body: unknown) => {
		if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) return res.json(body);
		res.end(body as string | Buffer);
		return res;
	};
	return res;
}

function respond(response: PlainResponse, status: number, body: unknown): string {
	const text = JSON.stringify(body);
	if (!response.writableEnded) {
		response.writeHead(status, { 'content-type': 'application/json' });
		response.end(text);
	}
	return text;
}

export class TriggerWorkflow {
	readonly workflow: Workflow;
	readonly node: INode;
	readonly deliveries: ReceivedDelivery[] = [];
	/** Log lines of every hook and webhook call of this workflow object. */
	readonly logs: string[] = [];
	private readonly nodeType: INodeType;

	constructor(
		private readonly receiver: WebhookReceiver,
		private readonly credentials: Credentials,
		options: {
			parameters?: INodeParameters;
			name?: string;
			workflowId?: string;
			webhookId?: string;
			staticData?: IDataObject;
			/** The node's type version (default 1). */
			typeVersion?: number;
		} = {},
	) {
		ensureEngine();
		this.node = {
			id: 'trigger-node-id',
			name: 'Prospecting Trigger',
			type: PROSPECTING_TRIGGER_NODE_TYPE,
			typeVersion: options.typeVersion ?? 1,
			position: [0, 0],
			webhookId: options.webhookId ?? randomUUID(),
			parameters: options.parameters ?? {},
			credentials: { prospectingApi: { id: 'cred-1', name: 'Prospecting account' } },
		};
		this.workflow = new Workflow({
			id: options.workflowId ?? `trigger-workflow-${randomUUID().slice(0, 8)}`,
			name: options.name ?? 'Won and lost prospections',
			nodes: [this.node],
			connections: {},
			active: false,
			nodeTypes,
			settings: { executionOrder: 'v1' },
			staticData: options.staticData ?? {},
		});
		this.nodeType = nodeTypes.getByNameAndVersion(this.node.type, this.node.typeVersion) as INodeType;
	}

	/** The URL n8n gives this node: production, or the test URL of "listen for test event". */
	url(test = false): string {
		const base = test ? this.receiver.urls.webhookTestBaseUrl : this.receiver.urls.webhookBaseUrl;
		return `${base}/${this.node.webhookId}/webhook`;
	}

	/** What n8n would persist of the node's static data (a JSON copy, ObservableObject flags removed). */
	persistedStaticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}

	nodeStaticData(): IDataObject {
		return this.persistedStaticData()[`node:${this.node.name}`] as IDataObject;
	}

	/** The same workflow after an n8n restart: static data as persisted, same node and URL. */
	restarted(parameters?: INodeParameters): TriggerWorkflow {
		return new TriggerWorkflow(this.receiver, this.credentials, {
			parameters: parameters ?? this.node.parameters,
			name: this.workflow.name,
			workflowId: this.workflow.id,
			webhookId: this.node.webhookId,
			staticData: this.persistedStaticData(),
			typeVersion: this.node.typeVersion,
		});
	}

	private workflowData(): IWorkflowBase {
		return {
			id: this.workflow.id,
			name: this.workflow.name ?? this.workflow.id,
			active: false,
			isArchived: false,
			activeVersionId: null,
			nodes: [this.node],
			connections: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		};
	}

	private additionalData(mode: WorkflowExecuteMode) {
		return createAdditionalData({
			executionId: nextExecutionId(),
			mode,
			workflowData: this.workflowData(),
			credentialsHelper: new TestCredentialsHelper({ prospectingApi: { ...this.credentials } }),
			urls: this.receiver.urls,
		});
	}

	private webhookData(test: boolean, additionalData: ReturnType<TriggerWorkflow['additionalData']>): IWebhookData {
		const webhookDescription = this.nodeType.description.webhooks![0];
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${this.node.webhookId}/webhook`,
			webhookDescription,
			workflowId: this.workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: this.node.webhookId,
			isTest: test,
		};
	}

	/** Runs one webhook method through n8n-core's HookContext. */
	async runHook(
		method: HookMethod,
		options: { test?: boolean; mode?: WorkflowExecuteMode; activation?: WorkflowActivateMode } = {},
	): Promise<boolean> {
		const test = options.test ?? false;
		const mode = options.mode ?? (method === 'delete' ? 'internal' : test ? 'manual' : 'trigger');
		const activation = options.activation ?? (method === 'delete' ? 'update' : test ? 'manual' : 'activate');
		const additionalData = this.additionalData(mode);
		const context = new HookContext(
			this.workflow,
			this.node,
			additionalData,
			mode,
			activation,
			this.webhookData(test, additionalData),
		);
		const sink = { lines: this.logs };
		return await withLogSink(sink, async () => {
			const hook = this.nodeType.webhookMethods!.default![method];
			return (await hook.call(context)) as boolean;
		});
	}

	/**
	 * Activation as n8n's WebhookService.createWebhookIfNotExists does it: checkExists, then create
	 * when it says false. Registers the URL with the receiver.
	 */
	async activate(options: { test?: boolean } = {}): Promise<{ created: boolean }> {
		const exists = await this.runHook('checkExists', options);
		if (!exists) await this.runHook('create', options);
		this.receiver.route(new URL(this.url(options.test)).pathname, this);
		return { created: !exists };
	}

	/** Deactivation: delete, and the receiver stops routing the URL. */
	async deactivate(options: { test?: boolean } = {}): Promise<boolean> {
		this.receiver.route(new URL(this.url(options.test)).pathname, undefined);
		return await this.runHook('delete', { test: options.test });
	}

	private readonly pending = new Set<Promise<void>>();

	/** Resolves once every delivery received so far has been answered and its run has finished. */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.all([...this.pending]);
	}

	/** Waits (bounded) until `count` deliveries were received and handled. */
	async waitForDeliveries(count: number, timeoutMs = 15_000): Promise<ReceivedDelivery[]> {
		const deadline = Date.now() + timeoutMs;
		while (this.deliveries.length < count) {
			if (Date.now() > deadline) {
				throw new Error(`Expected ${count} deliveries, received ${this.deliveries.length}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		await this.idle();
		return this.deliveries;
	}

	/**
	 * Hands one delivery to webhook() in process, without HTTP: the same WebhookContext and answer
	 * handling as the receiver, for large numbers of deliveries.
	 */
	async deliverInProcess(input: {
		headers: Record<string, string | string[]>;
		body: Buffer | string;
		test?: boolean;
	}): Promise<ReceivedDelivery> {
		const headers: Record<string, string | string[]> = {};
		for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
		headers['content-type'] ??= 'application/json';
		const request = { method: 'POST', url: '/', headers } as unknown as http.IncomingMessage;
		const response = new CapturedResponse();
		const before = this.deliveries.length;
		await this.receive(request, response, Buffer.from(input.body), input.test ?? false);
		const delivery = this.deliveries[before];
		if (delivery.status !== response.statusCode) throw new Error('Answer status and recorded status differ');
		return delivery;
	}

	async receive(
		request: http.IncomingMessage,
		rawResponse: PlainResponse,
		rawBody: Buffer,
		test: boolean,
	): Promise<void> {
		const done = this.handleDelivery(request, rawResponse, rawBody, test);
		this.pending.add(done);
		try {
			await done;
		} finally {
			this.pending.delete(done);
		}
	}

	/** Handles one HTTP delivery: webhook() in a WebhookContext, then the run its items start. */
	private async handleDelivery(
		request: http.IncomingMessage,
		rawResponse: PlainResponse,
		rawBody: Buffer,
		test: boolean,
	): Promise<void> {
		const response = expressResponse(rawResponse);
		const req = request as http.IncomingMessage & IDataObject;
		req.rawBody = rawBody;
		// n8n's body parser: JSON bodies are parsed into req.body; rawBody keeps the exact bytes.
		let body: unknown = {};
		if (String(request.headers['content-type'] ?? '').includes('json') && rawBody.length > 0) {
			try {
				body = JSON.parse(rawBody.toString('utf8'));
			} catch {
				body = {};
			}
		}
		req.body = body as IDataObject;
		req.query = {};
		req.params = {};

		const mode: WorkflowExecuteMode = test ? 'manual' : 'webhook';
		const additionalData = this.additionalData(mode);
		additionalData.httpRequest = req as never;
		additionalData.httpResponse = response as never;
		const context = new WebhookContext(
			this.workflow,
			this.node,
			additionalData,
			mode,
			this.webhookData(test, additionalData),
			[],
			null,
		);

		const delivery: ReceivedDelivery = { status: 0, answer: '', test };
		const sink = { lines: this.logs };
		let result: IWebhookResponseData;
		try {
			result = await withLogSink(sink, async () => await this.nodeType.webhook!.call(context));
		} catch (error) {
			delivery.error = error as Error;
			delivery.status = 500;
			delivery.answer = respond(rawResponse, 500, { message: 'Error in workflow' });
			this.deliveries.push(delivery);
			return;
		}

		if (result.noWebhookResponse === true) {
			delivery.status = rawResponse.statusCode;
			delivery.answer = rawResponse instanceof CapturedResponse ? rawResponse.body : '(answered by the node)';
			if (!rawResponse.writableEnded) rawResponse.end();
			this.deliveries.push(delivery);
			return;
		}
		if (result.workflowData === undefined) {
			delivery.status = 200;
			delivery.answer = respond(rawResponse, 200, result.webhookResponse ?? { message: 'Webhook call received' });
			this.deliveries.push(delivery);
			return;
		}

		// responseMode 'onReceived': answer first, then run the workflow.
		delivery.status = 200;
		delivery.answer = respond(rawResponse, 200, { message: 'Workflow was started' });
		delivery.items = result.workflowData[0];
		delivery.run = await executeWorkflow(
			{ nodes: [this.node], connections: {} },
			{
				credentials: { prospectingApi: { ...this.credentials } },
				inputItems: delivery.items.map((item) => item.json),
				mode,
			},
		);
		this.logs.push(...delivery.run.logs);
		this.deliveries.push(delivery);
	}
}
