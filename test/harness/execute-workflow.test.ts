import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { executeWorkflow, findSecret, registerNodeType, START_NODE } from '../../dev/harness';
import { ECHO_API_NODE_TYPE, EchoApi } from './fixtures/echo-api.node';
import { startRecordingServer } from './fixtures/recording-server';
import type { RecordingServer } from './fixtures/recording-server';

const API_KEY = 'harness-secret-key-0123456789abcdefghijkl';

registerNodeType(ECHO_API_NODE_TYPE, new EchoApi());

const startNode: INode = START_NODE;

function echoNode(parameters: INode['parameters'] = {}, extra: Partial<INode> = {}): INode {
	return {
		id: 'echo',
		name: 'Echo API',
		type: ECHO_API_NODE_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { prospectingApi: { id: '1', name: 'Prospecting account' } },
		...extra,
	};
}

function workflowWith(node: INode) {
	return {
		nodes: [startNode, node],
		connections: { Start: { main: [[{ node: node.name, type: 'main' as const, index: 0 }]] } },
	};
}

describe('executeWorkflow', () => {
	let server: RecordingServer;

	beforeAll(async () => {
		server = await startRecordingServer((request) => {
			if (request.url.pathname === '/missing') {
				return { status: 404, body: { message: 'Registro não encontrado' } };
			}
			return {
				status: 200,
				body: { path: request.url.pathname, item: request.url.searchParams.get('item'), received: request.body },
			};
		});
	});

	afterAll(async () => await server.stop());

	beforeEach(() => server.requests.splice(0));

	it('sends real HTTP with the apiKey query parameter added by the credential', async () => {
		const { output, error } = await executeWorkflow(workflowWith(echoNode({ path: '/api/v1/custom-fields' })), {
			credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
		});

		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].url.pathname).toBe('/api/v1/custom-fields');
		expect(server.requests[0].url.searchParams.get('apiKey')).toBe(API_KEY);
		expect(output('Echo API')).toEqual([
			{ json: { path: '/api/v1/custom-fields', item: '0', received: '' }, pairedItem: { item: 0 } },
		]);
	});

	it('feeds inputItems through the start node, one request per item', async () => {
		const { output } = await executeWorkflow(workflowWith(echoNode({ method: 'POST', path: '/leads' })), {
			credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
			inputItems: [{ name: 'Ana' }, { name: 'Bruno' }],
		});

		expect(output('Start').map((item) => item.json)).toEqual([{ name: 'Ana' }, { name: 'Bruno' }]);
		expect(server.requests.map((request) => JSON.parse(request.body))).toEqual([{ name: 'Ana' }, { name: 'Bruno' }]);
		expect(output('Echo API').map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('surfaces an HTTP failure as the NodeApiError the node raised', async () => {
		const { error, run, output } = await executeWorkflow(workflowWith(echoNode({ path: '/missing' })), {
			credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
		});

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('404');
		expect(run.status).toBe('error');
		expect(() => output('Never There')).toThrow(/did not run/);
		expect(server.requests[0].url.searchParams.get('apiKey')).toBe(API_KEY);
	});

	it('surfaces a NodeOperationError with its message and description', async () => {
		const { error } = await executeWorkflow(workflowWith(echoNode({ failWith: 'Campo inválido' })), {
			credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
		});

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('Campo inválido');
		expect((error as NodeOperationError).description).toBe('item 0: field failWith');
	});

	it('pairs an error item with its input when the node continues on fail', async () => {
		const { error, output } = await executeWorkflow(
			workflowWith(echoNode({ path: '={{ $json.path }}' }, { onError: 'continueRegularOutput' })),
			{
				credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
				inputItems: [{ path: '/ok' }, { path: '/missing' }, { path: '/ok-too' }],
			},
		);

		expect(error).toBeUndefined();
		const items = output('Echo API');
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toEqual(expect.any(String));
		expect(items[2].json.path).toBe('/ok-too');
	});

	it('fails like n8n when the node has no credential set', async () => {
		const { error } = await executeWorkflow(workflowWith(echoNode({}, { credentials: undefined })), {
			credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
		});

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toMatch(/credentials/i);
		expect(server.requests).toHaveLength(0);
	});

	it('captures log lines with their metadata, per run, also when runs overlap', async () => {
		const runs = await Promise.all(
			['/first', '/second'].map(
				async (path) =>
					await executeWorkflow(workflowWith(echoNode({ path })), {
						credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
					}),
			),
		);

		expect(runs[0].logs.join('\n')).toContain('"path":"/first"');
		expect(runs[0].logs.join('\n')).not.toContain('"path":"/second"');
		expect(runs[1].logs.join('\n')).toContain('"path":"/second"');
		expect(runs[0].logs.some((line) => line.includes('Workflow execution started'))).toBe(true);
	});

	it('records console output written during the run', async () => {
		const { logs } = await executeWorkflow(workflowWith(echoNode({ consoleMessage: 'printed by the node' })), {
			credentials: { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } },
		});

		expect(logs).toContain("[console.warn] printed by the node { itemIndex: 0 }");
	});

	it('leaves the caller\'s workflow object untouched, so one workflow can be run again', async () => {
		const workflow = workflowWith(echoNode({ path: '/again' }));
		const before = JSON.stringify(workflow);
		const credentials = { prospectingApi: { baseUrl: server.url, apiKey: API_KEY } };

		const [first, second] = await Promise.all([
			executeWorkflow(workflow, { credentials }),
			executeWorkflow(workflow, { credentials }),
		]);

		expect(JSON.stringify(workflow)).toBe(before);
		expect(first.output('Echo API')[0].json.path).toBe('/again');
		expect(second.output('Echo API')[0].json.path).toBe('/again');
		expect(first.run.data.resultData.runData['Echo API']).not.toBe(second.run.data.resultData.runData['Echo API']);
	});
});

describe('node type registry', () => {
	it('refuses a workflow whose node type is unknown, naming the type', async () => {
		await expect(
			executeWorkflow({
				nodes: [startNode, { ...echoNode(), type: 'n8n-nodes-harness.neverRegistered' }],
				connections: {},
			}),
		).rejects.toThrow('Unknown node type "n8n-nodes-harness.neverRegistered"');
	});
});

describe('findSecret', () => {
	it('names every place a secret surfaces, in plain or URL-encoded form', () => {
		const secret = 'key/with+chars';
		const places = {
			clean: { json: { ok: true } },
			output: [{ json: { url: `https://x.test/?apiKey=${encodeURIComponent(secret)}` } }],
			error: Object.assign(new Error('failed'), { description: `sent ${secret}` }),
			logs: ['[debug] nothing', `[error] ${secret}`],
		};

		expect(findSecret(secret, places)).toEqual(['output', 'error', 'logs']);
	});
});

describe('workflow issues', () => {
	it('names the node and parameter when n8n refuses to start the workflow', async () => {
		registerNodeType('n8n-nodes-harness.needsValue', {
			description: {
				displayName: 'Needs Value',
				name: 'needsValue',
				group: ['transform'],
				version: 1,
				description: 'Has a required parameter',
				defaults: { name: 'Needs Value' },
				inputs: ['main'],
				outputs: ['main'],
				properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '', required: true }],
			},
			async execute() {
				return [[]];
			},
		});
		const needsValue: INode = {
			id: 'n',
			name: 'Needs Value',
			type: 'n8n-nodes-harness.needsValue',
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		};

		await expect(executeWorkflow(workflowWith(needsValue))).rejects.toThrow(/"Needs Value".*"value"/);
	});
});
