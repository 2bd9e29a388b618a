/**
 * Runs a webhook trigger node the way n8n does, in process:
 * - `webhookMethods.default.checkExists/create/delete` through n8n-core's HookContext, with the modes
 *   n8n passes (activation: 'trigger'/'activate'; "listen for test event": 'manual'/'manual';
 *   deactivation: 'internal'/'update'), so getNodeWebhookUrl, getWorkflowStaticData('node'),
 *   getCredentials and httpRequestWithAuthentication are n8n-core's own;
 * - deliveries through n8n-core's WebhookContext, answered as n8n's webhook helpers answer a trigger
 *   whose response mode is 'onReceived'; over real HTTP (`startWebhookReceiver`) or in process
 *   (`handle.deliver`, for large numbers of forged deliveries).
 * - an accepted delivery then runs the workflow through WorkflowExecute (`delivery.run`), after the
 *   sender has its answer, as n8n does in response mode 'onReceived'.
 * The handle keeps one n8n `Workflow`, whose static data persists between calls as an active
 * workflow's does; `staticData` is what n8n would save, and a new handle created from it (same
 * `webhookId` and `workflowId`, see `restart()`) is the same workflow after an n8n restart.
 * One receiver serves many workflows: `receiver.createWorkflow()` makes a handle whose URLs the
 * receiver serves once it is activated (the latest activation wins) and no longer after `deactivate()`.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowBase,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ApplicationError, NodeHelpers, Workflow } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials';
import { createAdditionalData, DEFAULT_BASE_URL, ensureEngine, nextExecutionId, webhookBaseUrls } from './engine';
import type { WebhookBaseUrls } from './engine';
import { executeWorkflow, type TestCredentials, type WorkflowRunResult } from './execute-workflow';
import { withLogSink } from './log-capture';
import { nodeTypes, PROSPECTING_TRIGGER_NODE_TYPE } from './node-types';

export type WebhookMethodName = 'checkExists' | 'create' | 'delete';

/** 'trigger': the production URL of an active workflow; 'manual': the test URL ("listen for test event"). */
export type WebhookMode = 'trigger' | 'manual';

export interface TriggerWorkflowOptions {
	/** Trigger node parameters. */
	parameters?: INodeParameters;
	/** Credential data by type, e.g. `{ prospectingApi: { baseUrl, apiKey } }`. */
	credentials?: TestCredentials;
	/** Workflow static data as n8n persisted it (`handle.staticData` of an earlier handle). */
	staticData?: IDataObject;
	/** Node type; default the package's trigger. */
	nodeType?: string;
	typeVersion?: number;
	nodeName?: string;
	/** Keep the same value across a restart: the webhook URL is built from it. */
	webhookId?: string;
	workflowId?: string;
	workflowName?: string;
	/** Base of n8n's public URL (default http://127.0.0.1:5678); `startWebhookReceiver` sets it. */
	baseUrl?: string;
}

export interface DeliveryInput {
	headers?: Record<string, string | string[] | undefined>;
	/** The exact bytes of the body. */
	rawBody: Buffer | string;
	/** URL mode the delivery arrives on; default 'trigger' (production URL). */
	mode?: WebhookMode;
	method?: IHttpRequestMethods;
	query?: Record<string, string>;
}

export interface DeliveryResult {
	mode: WebhookMode;
	/** HTTP status answered to the sender. */
	status: number;
	/** Body answered, as text. */
	body: string;
	headers: Record<string, string>;
	/** What webhook() returned; undefined when it threw or the body could not be parsed. */
	response?: IWebhookResponseData;
	/** Items that start an execution; undefined when the delivery started none. */
	workflowData?: INodeExecutionData[][];
	/** The items of the execution started (`workflowData[0]`); undefined when none was started. */
	items?: INodeExecutionData[];
	/** The workflow run those items started. */
	run?: WorkflowRunResult;
	/** webhook() threw (answered 500, as n8n does). */
	error?: Error;
	/** Log and console lines written while the delivery was handled. */
	logs: string[];
}

/** Where a receiver serves a handle's URLs (see `startWebhookReceiver`). */
interface WebhookRoutes {
	url: string;
	route(path: string, handle: TriggerWorkflowHandle | undefined): void;
}

/** Response object given to webhook(): the Express methods nodes use, kept in memory. */
class RecordedResponse {
	statusCode = 200;
	headersSent = false;
	writableEnded = false;
	body = '';
	readonly headers: Record<string, string> = {};

	status(code: number) {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string | number | readonly string[]) {
		this.headers[name.toLowerCase()] = String(value);
		return this;
	}

	header(name: string, value: string) {
		return this.setHeader(name, value);
	}

	set(name: string, value: string) {
		return this.setHeader(name, value);
	}

	getHeader(name: string) {
		return this.headers[name.toLowerCase()];
	}

	writeHead(status: number, headers: Record<string, string> = {}) {
		this.statusCode = status;
		for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
		this.headersSent = true;
		return this;
	}

	json(body: unknown) {
		this.headers['content-type'] ??= 'application/json; charset=utf-8';
		return this.end(JSON.stringify(body));
	}

	send(body: unknown) {
		if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) return this.json(body);
		return this.end(body === undefined ? '' : String(body));
	}

	sendStatus(code: number) {
		this.statusCode = code;
		return this.end(String(code));
	}

	write(chunk: string | Buffer) {
		this.headersSent = true;
		this.body += chunk.toString();
		return true;
	}

	end(chunk?: string | Buffer) {
		if (this.writableEnded) throw new ApplicationError('The webhook response was ended twice');
		if (chunk !== undefined) this.body += chunk.toString();
		this.headersSent = true;
		this.writableEnded = true;
		return this;
	}

	/** n8n's responseCallback: answers with JSON unless the node already answered. */
	answer(status: number, data: unknown) {
		if (this.writableEnded) return;
		this.statusCode = status;
		if (typeof data === 'string' || Buffer.isBuffer(data)) {
			this.end(data);
		} else {
			this.json(data);
		}
	}
}

function lowerCaseHeaders(headers: DeliveryInput['headers'] = {}): IncomingHttpHeaders {
	const result: IncomingHttpHeaders = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) result[name.toLowerCase()] = value;
	}
	return result;
}

/** Media type of a content-type header, as n8n reads it (`req.contentType`). */
function mediaType(headers: IncomingHttpHeaders): string | undefined {
	const value = headers['content-type'];
	return value ? value.split(';')[0].trim().toLowerCase() : undefined;
}

/**
 * n8n's body parser: JSON bodies become `req.body`, url-encoded forms an object, text a string;
 * `rawBody` keeps the exact bytes. An unparsable JSON body is refused with 422 before any node runs.
 */
function parseBody(rawBody: Buffer, headers: IncomingHttpHeaders): { body: unknown } | { refused: string } {
	if (rawBody.length === 0) return { body: {} };
	const type = mediaType(headers);
	const text = rawBody.toString('utf8');
	if (type === 'application/json' || type?.endsWith('+json')) {
		try {
			return { body: JSON.parse(text) as unknown };
		} catch (error) {
			return { refused: (error as Error).message };
		}
	}
	if (type === 'application/x-www-form-urlencoded') {
		return { body: Object.fromEntries(new URLSearchParams(text)) };
	}
	if (type?.startsWith('text/')) return { body: text };
	return { body: {} };
}

export class TriggerWorkflowHandle {
	readonly workflow: Workflow;
	readonly node: INode;
	readonly nodeType: INodeType;
	/** Every log line of every webhook method and delivery of this handle. */
	readonly logs: string[] = [];
	/** Every delivery handed to webhook(), in order (in process and over HTTP). */
	readonly deliveries: DeliveryResult[] = [];
	private urls: WebhookBaseUrls;
	private routes?: WebhookRoutes;
	private readonly pending = new Set<Promise<unknown>>();

	constructor(private readonly options: TriggerWorkflowOptions = {}) {
		ensureEngine();
		const type = options.nodeType ?? PROSPECTING_TRIGGER_NODE_TYPE;
		this.node = {
			id: 'trigger-node',
			name: options.nodeName ?? 'Prospecting Trigger',
			type,
			typeVersion: options.typeVersion ?? 1,
			position: [0, 0],
			webhookId: options.webhookId ?? randomUUID(),
			parameters: structuredClone(options.parameters ?? {}),
			credentials: Object.fromEntries(
				Object.keys(options.credentials ?? {}).map((credentialType) => [
					credentialType,
					TestCredentialsHelper.nodeCredentials(credentialType),
				]),
			),
		};
		const workflowId = options.workflowId ?? `trigger-workflow-${randomUUID().slice(0, 8)}`;
		this.workflow = new Workflow({
			id: workflowId,
			name: options.workflowName ?? 'Won and lost prospections',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			settings: { executionOrder: 'v1' },
			staticData: structuredClone(options.staticData ?? {}),
		});
		this.nodeType = nodeTypes.getByNameAndVersion(type, this.node.typeVersion);
		this.urls = webhookBaseUrls(options.baseUrl ?? DEFAULT_BASE_URL);
	}

	/** Points n8n's public URL at `baseUrl` (the receiver does this; call before `create`). */
	useBaseUrl(baseUrl: string): void {
		this.urls = webhookBaseUrls(baseUrl);
	}

	/** Served by a receiver from now on: its URL becomes n8n's public URL; activation routes to this handle. */
	attach(routes: WebhookRoutes): void {
		this.routes = routes;
		this.useBaseUrl(routes.url);
	}

	get baseUrls(): WebhookBaseUrls {
		return this.urls;
	}

	/** Workflow static data as n8n would persist it (a JSON copy). */
	get staticData(): IDataObject {
		const copy = JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
		for (const value of Object.values(copy)) {
			if (value && typeof value === 'object') delete (value as IDataObject).__dataChanged;
		}
		delete copy.__dataChanged;
		return copy;
	}

	/** The trigger node's part of the static data (`getWorkflowStaticData('node')`). */
	get nodeStaticData(): IDataObject {
		return (this.staticData[`node:${this.node.name}`] as IDataObject | undefined) ?? {};
	}

	/** The same workflow after an n8n restart: persisted static data, same ids, URL and credentials. */
	restart(overrides: Partial<TriggerWorkflowOptions> = {}): TriggerWorkflowHandle {
		const handle = new TriggerWorkflowHandle({
			...this.options,
			parameters: this.node.parameters,
			webhookId: this.node.webhookId,
			workflowId: this.workflow.id,
			workflowName: this.workflow.name,
			staticData: this.staticData,
			...overrides,
		});
		handle.urls = this.urls;
		handle.routes = this.routes;
		return handle;
	}

	private webhookDescription(): IWebhookDescription {
		const description = this.nodeType.description.webhooks?.find((webhook) => webhook.name === 'default');
		if (!description) throw new ApplicationError(`Node type ${this.node.type} has no default webhook`);
		return description;
	}

	/** The description's path and isFullPath, resolved for this node. */
	private pathParameters(): { path: string; isFullPath: boolean } {
		const description = this.webhookDescription();
		const resolve = (value: unknown, fallback?: unknown) =>
			this.workflow.expression.getSimpleParameterValue(this.node, value as string, 'internal', {}, undefined, fallback as never);
		return { path: String(resolve(description.path) ?? ''), isFullPath: resolve(description.isFullPath, false) as boolean };
	}

	/** The webhook path n8n registers for the node (`<webhookId>/<path>` unless isFullPath). */
	webhookPath(): string {
		const { path, isFullPath } = this.pathParameters();
		return NodeHelpers.getNodeWebhookPath(this.workflow.id, this.node, path, isFullPath);
	}

	/** n8n's webhook URL for the node: production for 'trigger', the test URL for 'manual'. */
	webhookUrl(mode: WebhookMode = 'trigger'): string {
		const base = mode === 'manual' ? this.urls.webhookTestBaseUrl : this.urls.webhookBaseUrl;
		const { path, isFullPath } = this.pathParameters();
		return NodeHelpers.getNodeWebhookUrl(base, this.workflow.id, this.node, path, isFullPath);
	}

	private workflowData(): IWorkflowBase {
		return {
			id: this.workflow.id,
			name: this.workflow.name ?? this.workflow.id,
			active: true,
			isArchived: false,
			activeVersionId: null,
			nodes: [this.node],
			connections: {},
			settings: this.workflow.settings,
			createdAt: new Date(),
			updatedAt: new Date(),
		};
	}

	private buildAdditionalData(mode: WorkflowExecuteMode) {
		return createAdditionalData({
			executionId: nextExecutionId(),
			mode,
			workflowData: this.workflowData(),
			credentials: this.options.credentials,
			urls: this.urls,
		});
	}

	private webhookData(isTest: boolean, additionalData: ReturnType<TriggerWorkflowHandle['buildAdditionalData']>): IWebhookData {
		const description = this.webhookDescription();
		const httpMethod = this.workflow.expression.getSimpleParameterValue(
			this.node,
			description.httpMethod,
			'internal',
			{},
			undefined,
			'GET',
		) as IHttpRequestMethods;
		return {
			httpMethod,
			node: this.node.name,
			path: this.webhookPath(),
			webhookDescription: description,
			workflowId: this.workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: this.node.webhookId,
			isTest,
		};
	}

	/**
	 * Runs one of the node's webhook methods through n8n-core's HookContext.
	 * 'trigger': activation of the workflow (mode 'trigger', activation 'activate', production URL);
	 * 'manual': "listen for test event" (mode 'manual', activation 'manual', test URL).
	 * `delete` runs as n8n's deactivation does: mode 'internal', activation 'update'.
	 */
	async runWebhookMethod(
		method: WebhookMethodName,
		mode: WebhookMode = 'trigger',
		override: { executeMode?: WorkflowExecuteMode; activation?: WorkflowActivateMode } = {},
	): Promise<boolean> {
		const isTest = mode === 'manual';
		const executeMode: WorkflowExecuteMode =
			override.executeMode ?? (method === 'delete' ? 'internal' : isTest ? 'manual' : 'trigger');
		const activation: WorkflowActivateMode =
			override.activation ?? (method === 'delete' ? 'update' : isTest ? 'manual' : 'activate');
		const hook = this.nodeType.webhookMethods?.default?.[method];
		if (!hook) throw new ApplicationError(`Node type ${this.node.type} has no webhookMethods.default.${method}`);

		const additionalData = this.buildAdditionalData(executeMode);
		const context = new HookContext(
			this.workflow,
			this.node,
			additionalData,
			executeMode,
			activation,
			this.webhookData(isTest, additionalData),
		);
		const sink = { lines: [] as string[] };
		try {
			return (await withLogSink(sink, async () => await hook.call(context))) as boolean;
		} finally {
			this.logs.push(...sink.lines);
		}
	}

	/**
	 * What n8n does on activation (WebhookService.createWebhookIfNotExists): checkExists, then create when it
	 * answered false. The receiver the handle is attached to then serves the URL to this handle.
	 */
	async activate(mode: WebhookMode = 'trigger'): Promise<{ created: boolean }> {
		const exists = await this.runWebhookMethod('checkExists', mode);
		if (!exists) await this.runWebhookMethod('create', mode);
		this.routes?.route(new URL(this.webhookUrl(mode)).pathname, this);
		return { created: !exists };
	}

	/** Deactivation: the receiver stops serving the URL, then delete. */
	async deactivate(mode: WebhookMode = 'trigger'): Promise<boolean> {
		this.routes?.route(new URL(this.webhookUrl(mode)).pathname, undefined);
		return await this.runWebhookMethod('delete', mode);
	}

	/** Resolves once every delivery received so far has been answered and the run it started has finished. */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.all([...this.pending]);
	}

	/** Waits (bounded) until `count` deliveries were handled, their runs included. */
	async waitForDeliveries(count: number, timeoutMs = 15_000): Promise<DeliveryResult[]> {
		const deadline = Date.now() + timeoutMs;
		while (this.deliveries.length < count) {
			if (Date.now() > deadline) throw new ApplicationError(`Expected ${count} deliveries, received ${this.deliveries.length}`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		await this.idle();
		return this.deliveries;
	}

	/**
	 * Hands one delivery to the node's webhook() in n8n-core's WebhookContext, without HTTP, and
	 * answers as n8n does for a trigger node (response mode 'onReceived'); `onAnswered` gets the
	 * answer before the workflow runs (the receiver sends it then).
	 */
	async deliver(input: DeliveryInput, onAnswered?: (answered: DeliveryResult) => void): Promise<DeliveryResult> {
		const handled = this.handleDelivery(input, onAnswered);
		this.pending.add(handled);
		try {
			return await handled;
		} finally {
			this.pending.delete(handled);
		}
	}

	private async handleDelivery(input: DeliveryInput, onAnswered?: (answered: DeliveryResult) => void): Promise<DeliveryResult> {
		const headers = lowerCaseHeaders(input.headers);
		const rawBody = Buffer.isBuffer(input.rawBody) ? input.rawBody : Buffer.from(input.rawBody, 'utf8');
		const mode = input.mode ?? 'trigger';
		const response = new RecordedResponse();
		const sink = { lines: [] as string[] };
		const result: DeliveryResult = await withLogSink(sink, async () => {
			const parsed = parseBody(rawBody, headers);
			if ('refused' in parsed) {
				response.answer(422, { code: 422, message: 'Failed to parse request body', hint: parsed.refused });
				return this.recorded(mode, response, sink.lines);
			}
			const request = {
				method: input.method ?? 'POST',
				url: new URL(this.webhookUrl(mode)).pathname,
				headers,
				query: input.query ?? {},
				params: {},
				body: parsed.body,
				rawBody,
				contentType: mediaType(headers),
				readRawBody: async () => {},
			};
			return await this.runWebhook(mode, request, response, sink.lines);
		});
		this.logs.push(...sink.lines);
		onAnswered?.(result);
		if (result.items) {
			result.run = await executeWorkflow(
				{ nodes: [this.node], connections: {} },
				{
					credentials: this.options.credentials,
					inputItems: result.items.map((item) => item.json),
					mode: mode === 'manual' ? 'manual' : 'webhook',
				},
			);
			this.logs.push(...result.run.logs);
		}
		this.deliveries.push(result);
		return result;
	}

	private recorded(mode: WebhookMode, response: RecordedResponse, logs: string[]): DeliveryResult {
		return { mode, status: response.statusCode, body: response.body, headers: response.headers, logs };
	}

	private async runWebhook(
		mode: WebhookMode,
		request: Record<string, unknown>,
		response: RecordedResponse,
		logs: string[],
	): Promise<DeliveryResult> {
		const executeMode: WorkflowExecuteMode = mode === 'manual' ? 'manual' : 'webhook';
		const additionalData = this.buildAdditionalData(executeMode);
		additionalData.httpRequest = request as unknown as typeof additionalData.httpRequest;
		additionalData.httpResponse = response as unknown as typeof additionalData.httpResponse;
		const webhookData = this.webhookData(mode === 'manual', additionalData);
		const context = new WebhookContext(this.workflow, this.node, additionalData, executeMode, webhookData, [], null);
		const description = webhookData.webhookDescription;
		const responseCode = Number(
			this.workflow.expression.getSimpleParameterValue(this.node, description.responseCode as string | undefined, executeMode, {}, undefined, 200),
		);

		let webhookResult: IWebhookResponseData;
		try {
			if (!this.nodeType.webhook) throw new ApplicationError(`Node type ${this.node.type} has no webhook()`);
			webhookResult = await this.nodeType.webhook.call(context);
		} catch (error) {
			// n8n: "Workflow Webhook Error: Workflow could not be started!", status 500, no execution.
			response.answer(500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			return { ...this.recorded(mode, response, logs), error: error as Error };
		}

		if (webhookResult.noWebhookResponse === true && !response.writableEnded) {
			// The node answers itself; n8n leaves the response to it.
		} else if (webhookResult.workflowData === undefined) {
			response.answer(responseCode, webhookResult.webhookResponse ?? { message: 'Webhook call received' });
		} else {
			response.answer(responseCode, webhookResult.webhookResponse ?? { message: 'Workflow was started' });
		}
		return {
			...this.recorded(mode, response, logs),
			response: webhookResult,
			workflowData: webhookResult.workflowData,
			items: webhookResult.workflowData?.[0],
		};
	}

	/** Writes a recorded answer to a real HTTP response. */
	static flush(result: DeliveryResult, res: ServerResponse): void {
		if (res.writableEnded) return;
		res.writeHead(result.status, result.headers);
		res.end(result.body);
	}
}

/** Creates a handle for one trigger node in its own workflow. */
export function createTriggerWorkflow(options: TriggerWorkflowOptions = {}): TriggerWorkflowHandle {
	return new TriggerWorkflowHandle(options);
}

export interface WebhookReceiver {
	/** n8n's public base URL, served by this receiver (e.g. http://127.0.0.1:PORT). */
	url: string;
	/** Deliveries received over HTTP, in order. */
	deliveries: DeliveryResult[];
	/** Resolves once `count` deliveries were handled (bounded wait). */
	waitForDeliveries(count: number, timeoutMs?: number): Promise<DeliveryResult[]>;
	/** Serves both URLs of `handle` from now on (e.g. `handle.restart()`), active or not. */
	use(handle: TriggerWorkflowHandle): void;
	/** A handle served by this receiver once activated (`activate`), until deactivated. */
	createWorkflow(options?: TriggerWorkflowOptions): TriggerWorkflowHandle;
	stop(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for n8n's webhook endpoints: a POST to a URL it
 * serves goes to that handle's webhook() (production URL /webhook/..., test URL /webhook-test/...);
 * anything else is answered 404 as n8n answers an unregistered webhook. The URL the trigger
 * registers remotely is this receiver's. With `first`, serves both URLs of that handle at once.
 */
export async function startWebhookReceiver(first?: TriggerWorkflowHandle): Promise<WebhookReceiver> {
	ensureEngine();
	const routes = new Map<string, TriggerWorkflowHandle>();
	const deliveries: DeliveryResult[] = [];
	const server: Server = createServer((req, res) => void receive(req, res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const url = `http://127.0.0.1:${port}`;
	const served: WebhookRoutes = {
		url,
		route(path, handle) {
			if (handle) routes.set(path, handle);
			else routes.delete(path);
		},
	};

	async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const address = new URL(req.url ?? '/', url);
		const handle = routes.get(address.pathname);
		if (handle === undefined || req.method !== 'POST') {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ code: 404, message: `The requested webhook "${req.method} ${address.pathname}" is not registered.` }));
			return;
		}
		const result = await handle.deliver(
			{
				headers: req.headers as Record<string, string | string[] | undefined>,
				rawBody: Buffer.concat(chunks),
				mode: address.pathname.startsWith('/webhook-test/') ? 'manual' : 'trigger',
				method: 'POST',
				query: Object.fromEntries(address.searchParams),
			},
			(answered) => {
				deliveries.push(answered);
				TriggerWorkflowHandle.flush(answered, res);
			},
		);
		TriggerWorkflowHandle.flush(result, res);
	}

	const receiver: WebhookReceiver = {
		url,
		deliveries,
		async waitForDeliveries(count: number, timeoutMs = 15_000) {
			const deadline = Date.now() + timeoutMs;
			while (deliveries.length < count) {
				if (Date.now() > deadline) {
					throw new ApplicationError(`Expected ${count} deliveries, received ${deliveries.length}`);
				}
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			return deliveries;
		},
		use(handle: TriggerWorkflowHandle) {
			handle.attach(served);
			for (const mode of ['trigger', 'manual'] as const) served.route(new URL(handle.webhookUrl(mode)).pathname, handle);
		},
		createWorkflow(options: TriggerWorkflowOptions = {}) {
			const handle = new TriggerWorkflowHandle(options);
			handle.attach(served);
			return handle;
		},
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	if (first) receiver.use(first);
	return receiver;
}
