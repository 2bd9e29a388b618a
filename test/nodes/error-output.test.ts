/**
 * "On Error: Continue (using error output)": a refused item leaves on the error branch with the reason, the good
 * ones on the success branch (what the lead capture form's "Not registered" page is built on).
 */
import type { INode } from 'n8n-workflow';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import { executeWorkflow, PROSPECTING_NODE_TYPE, START_NODE_TYPE } from '../../dev/harness';
import { expectNoSecret } from './support';

let sandbox: RunningSandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.stop());
beforeEach(() => resetBudgets());

it('sends an item the node refuses to the error output, with its message, and the others on', async () => {
	const start: INode = { id: 's', name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const create: INode = {
		id: 'c',
		name: 'Create lead',
		type: PROSPECTING_NODE_TYPE,
		typeVersion: 1,
		position: [200, 0],
		onError: 'continueErrorOutput',
		parameters: {
			resource: 'lead',
			operation: 'create',
			name: '={{ $json.name }}',
			company: 'Acme',
			email: '={{ $json.email }}',
			options: { skipIfExists: true },
		},
		credentials: { prospectingApi: { id: '1', name: 'Prospecting account' } },
	};
	const email = `ok.${Date.now()}@example.com`;
	const run = await executeWorkflow(
		{ nodes: [start, create], connections: { Start: { main: [[{ node: 'Create lead', type: 'main', index: 0 }]] } } },
		{
			credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } },
			inputItems: [
				{ name: 'Ana', email },
				{ name: 'Sem Contato', email: '' },
			],
		},
	);
	expect(run.error).toBeUndefined();
	const success = run.output('Create lead', 0);
	const failed = run.output('Create lead', 1);
	expect(success.map((item) => item.json.name)).toEqual(['Ana']);
	expect(failed).toHaveLength(1);
	expect(failed[0].json.error).toMatch(/at least one contact/);
	expect(String(failed[0].json.error)).toMatch(/\(item 1\)$/);
	expectNoSecret(run, sandbox.apiKey);
});

describe('the outcome of a failed write, for a workflow to branch on', () => {
	const create = (overrides: Partial<INode> = {}): INode => ({
		id: 'c',
		name: 'Create lead',
		type: PROSPECTING_NODE_TYPE,
		typeVersion: 2,
		position: [200, 0],
		onError: 'continueErrorOutput',
		parameters: {
			resource: 'lead',
			operation: 'create',
			name: '={{ $json.name }}',
			email: '={{ $json.email }}',
			options: { lostLeadSearch: 0 },
		},
		credentials: { prospectingApi: { id: '1', name: 'Prospecting account' } },
		...overrides,
	});
	const start: INode = { id: 's', name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const workflow = (node: INode) => ({
		nodes: [start, node],
		connections: { Start: { main: [[{ node: node.name, type: 'main' as const, index: 0 }]] } },
	});
	beforeEach(() => sandbox.control.reset());

	const threeItems = async (node: INode) => {
		// The first create's connection drops before the commit: nothing shows it was not applied.
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		const stamp = Date.now();
		const run = await executeWorkflow(workflow(node), {
			credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } },
			inputItems: [
				{ name: 'Perdido', email: `perdido.${stamp}@example.com` },
				{ name: 'Sem Contato', email: '' },
				{ name: 'Criado', email: `criado.${stamp}@example.com` },
			],
		});
		expect(run.error).toBeUndefined();
		return run;
	};

	it('with Continue (regular output): a create whose outcome is unknown says unknown, an input error notSent, the lead created says created', async () => {
		const run = await threeItems(create({ onError: 'continueRegularOutput' }));
		expect(run.output('Create lead', 0).map((item) => [item.json.itemIndex ?? item.json.name, item.json.writeOutcome ?? item.json.leadOutcome])).toEqual([
			[0, 'unknown'],
			[1, 'notSent'],
			['Criado', 'created'],
		]);
	});

	it('on the error output: each error carries its outcome (n8n keeps only the message in the json there), the lead created says created', async () => {
		const run = await threeItems(create());
		expect(run.output('Create lead', 0).map((item) => [item.json.name, item.json.leadOutcome])).toEqual([['Criado', 'created']]);
		const failed = run.output('Create lead', 1);
		expect(failed.map((item) => (item.error as { context?: Record<string, unknown> } | undefined)?.context?.writeOutcome)).toEqual([
			'unknown',
			'notSent',
		]);
		expect(failed.map((item) => Object.keys(item.json))).toEqual([['error'], ['error']]);
	});

	it('without Continue On Fail, the error that stops the run carries the outcome too', async () => {
		const run = await executeWorkflow(workflow(create({ onError: undefined })), {
			credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } },
			inputItems: [{ name: 'Sem Contato', email: '' }],
		});
		expect(run.error?.message).toMatch(/at least one contact/);
		expect((run.error as { context?: Record<string, unknown> }).context?.writeOutcome).toBe('notSent');
	});

	it('a manual run stopped by "Writes in Manual Runs: Stop With Error" says notSent', async () => {
		const run = await executeWorkflow(workflow(create({ onError: 'continueRegularOutput' })), {
			credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, manualWrites: 'ask' } },
			inputItems: [{ name: 'Manual', email: `manual.${Date.now()}@example.com` }],
			mode: 'manual',
		});
		expect(run.output('Create lead', 0).map((item) => [item.json.error, item.json.writeOutcome])).toEqual([
			[expect.stringMatching(/^Lead Create would write to production: /), 'notSent'],
		]);
	});

	it('a read that fails carries no outcome: it wrote nothing', async () => {
		const run = await executeWorkflow(
			workflow(create({ onError: 'continueRegularOutput', parameters: { resource: 'lead', operation: 'getMany', limit: -1 } })),
			{ credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } } },
		);
		const [item] = run.output('Create lead', 0);
		expect(item.json.error).toBeDefined();
		expect(item.json).not.toHaveProperty('writeOutcome');
	});
});
