/** The routine picker (list mode of the Routine parameter), run through n8n-core's LoadOptionsContext as the editor does. */
import type { INode, INodeListSearchResult } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { startSandbox } from '../../sandbox';
import type { RunningSandbox } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport';
import { searchRoutines } from '../../nodes/Prospecting/methods/listSearch';
import { nodeTypes, PROSPECTING_NODE_TYPE } from '../helpers';
import { createAdditionalData, nextExecutionId } from '../helpers/engine';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false, dataset: { routines: 7 } });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.control.reset();
	resetBudgets();
});

function loadOptionsContext(): LoadOptionsContext {
	const node: INode = {
		id: 'p',
		name: 'Prospecting',
		type: PROSPECTING_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'routine', operation: 'addLead' },
		credentials: { prospectingApi: { id: '1', name: 'Prospecting account' } },
	};
	const workflow = new Workflow({
		id: 'list-search',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const additionalData = createAdditionalData({
		executionId: nextExecutionId(),
		mode: 'manual',
		workflowData: {
			id: 'list-search',
			name: 'list-search',
			nodes: [node],
			connections: {},
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		},
		credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } },
	});
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters.routineId');
}

it('lists every routine by name with its id as value', async () => {
	const result = (await searchRoutines.call(loadOptionsContext())) as INodeListSearchResult;
	const expected = sandbox.control
		.routines()
		.map((routine) => ({ name: routine.name, value: routine.id }));
	expect(result.results).toEqual(expected);
	expect(result.paginationToken).toBeUndefined();
});

it('filters by the typed text, in the name or the id', async () => {
	const target = sandbox.control.routines()[2];
	const typed = target.name.slice(0, 5);
	const result = await searchRoutines.call(loadOptionsContext(), typed.toUpperCase());
	const expected = sandbox.control
		.routines()
		.filter((routine) => routine.name.toLowerCase().includes(typed.toLowerCase()))
		.map((routine) => routine.id);
	expect(result.results.map((entry) => entry.value)).toEqual(expected);
	expect(expected).toContain(target.id);
});
