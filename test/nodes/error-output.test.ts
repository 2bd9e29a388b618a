/**
 * "On Error: Continue (using error output)": a refused item leaves on the error branch with the reason, the good
 * ones on the success branch (what the lead capture form's "Not registered" page is built on).
 */
import type { INode } from 'n8n-workflow';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport';
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
