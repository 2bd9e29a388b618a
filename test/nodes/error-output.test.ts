/**
 * "On Error: Continue (using error output)": a refused item leaves on the error branch with the reason, the good
 * ones on the success branch (what the lead capture form's "Not registered" page is built on).
 */
import type { INodeParameters } from 'n8n-workflow';

import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { expectNoSecret, NODE_NAME, runNode, type RunOptions } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox();

it('sends an item the node refuses to the error output, with its message, and the others on', async () => {
	const email = `ok.${Date.now()}@example.com`;
	const run = await runNode(
		{
			resource: 'lead',
			operation: 'create',
			name: '={{ $json.name }}',
			company: 'Acme',
			email: '={{ $json.email }}',
			options: { skipIfExists: true },
		},
		{
			...connection,
			continueOnFail: 'errorOutput',
			inputItems: [
				{ name: 'Ana', email },
				{ name: 'Sem Contato', email: '' },
			],
		},
	);
	expect(run.error).toBeUndefined();
	const success = run.output(NODE_NAME, 0);
	const failed = run.output(NODE_NAME, 1);
	expect(success.map((item) => item.json.name)).toEqual(['Ana']);
	expect(failed).toHaveLength(1);
	expect(failed[0].json.error).toMatch(/at least one contact/);
	expect(String(failed[0].json.error)).toMatch(/\(item 1\)$/);
	expectNoSecret(run, sandbox.apiKey);
});

describe('the outcome of a failed write, for a workflow to branch on', () => {
	const createFromInput = { resource: 'lead', operation: 'create', name: '={{ $json.name }}', email: '={{ $json.email }}', options: { lostLeadSearch: 0 } };
	/** The node at version 2, on the error output unless `options` say otherwise. */
	const run = async (parameters: INodeParameters, options: Partial<RunOptions>) =>
		await runNode(parameters, { ...connection, typeVersion: 2, continueOnFail: 'errorOutput', ...options });

	/** Lead Create of three items: the first's connection drops before the commit, the second has no contact. */
	const threeItems = async (continueOnFail: RunOptions['continueOnFail']) => {
		// The first create's connection drops before the commit: nothing shows it was not applied.
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		const stamp = Date.now();
		const result = await run(createFromInput, {
			continueOnFail,
			inputItems: [
				{ name: 'Perdido', email: `perdido.${stamp}@example.com` },
				{ name: 'Sem Contato', email: '' },
				{ name: 'Criado', email: `criado.${stamp}@example.com` },
			],
		});
		expect(result.error).toBeUndefined();
		return result;
	};

	it('with Continue (regular output): a create whose outcome is unknown says unknown, an input error notSent, the lead created says created', async () => {
		const result = await threeItems(true);
		expect(result.output(NODE_NAME, 0).map((item) => [item.json.itemIndex ?? item.json.name, item.json.writeOutcome ?? item.json.leadOutcome])).toEqual([
			[0, 'unknown'],
			[1, 'notSent'],
			['Criado', 'created'],
		]);
	});

	it('on the error output: each error carries its outcome (n8n keeps only the message in the json there), the lead created says created', async () => {
		const result = await threeItems('errorOutput');
		expect(result.output(NODE_NAME, 0).map((item) => [item.json.name, item.json.leadOutcome])).toEqual([['Criado', 'created']]);
		const failed = result.output(NODE_NAME, 1);
		expect(failed.map((item) => outcomeOf(item.error))).toEqual(['unknown', 'notSent']);
		expect(failed.map((item) => Object.keys(item.json))).toEqual([['error'], ['error']]);
	});

	it('without Continue On Fail, the error that stops the run carries the outcome too', async () => {
		const result = await run(createFromInput, { continueOnFail: false, inputItems: [{ name: 'Sem Contato', email: '' }] });
		expect(result.error?.message).toMatch(/at least one contact/);
		expect(outcomeOf(result.error)).toBe('notSent');
	});

	it('a manual run stopped by "Writes in Manual Runs: Stop With Error" says notSent', async () => {
		const result = await run(createFromInput, {
			continueOnFail: true,
			manualWrites: 'ask',
			inputItems: [{ name: 'Manual', email: `manual.${Date.now()}@example.com` }],
			mode: 'manual',
		});
		expect(result.output(NODE_NAME, 0).map((item) => [item.json.error, item.json.writeOutcome])).toEqual([
			[expect.stringMatching(/^Lead Create would write to production: /), 'notSent'],
		]);
	});

	it('a read that fails carries no outcome: it wrote nothing', async () => {
		const result = await run({ resource: 'lead', operation: 'getMany', limit: -1 }, { continueOnFail: true });
		const [item] = result.output(NODE_NAME, 0);
		expect(item.json.error).toBeDefined();
		expect(item.json).not.toHaveProperty('writeOutcome');
	});
});
