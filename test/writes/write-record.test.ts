/**
 * The record behind "n8n's Retry On Fail sends nothing twice" (actions/helpers/writeOnce.ts): per execution, node,
 * run, item and body, how a write's try ended. The engine tests (test/nodes/retry-on-fail.test.ts) show the
 * retries; these show the record's own bounds, which no workflow reaches in a test's time: a record lasts an hour,
 * at most 20,000 are kept, and a write in another run of the node (a loop) or another item is a write of its own.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

type WriteOnce = typeof import('../../nodes/Prospecting/actions/helpers/writeOnce');

/** A fresh record (the module's own), so that counts do not depend on other tests. */
function freshRecord(): WriteOnce['onceInExecution'] {
	let module: WriteOnce | undefined;
	jest.isolateModules(() => {
		module = require('../../nodes/Prospecting/actions/helpers/writeOnce') as WriteOnce;
	});
	return module!.onceInExecution;
}

/** What onceInExecution reads of n8n's execute context: the execution, the node and the run. */
function tryOf(
	executionId: string | undefined,
	runIndex = 0,
	node: { id?: string; name: string } = { id: 'prospecting-1', name: 'Prospecting' },
): IExecuteFunctions {
	return { getExecutionId: () => executionId, getNode: () => node, runIndex } as unknown as IExecuteFunctions;
}

const lead = { method: 'POST', path: '/leads', body: { name: 'Ana', emails: [{ value: 'ana@example.com' }] } };

/** A write that counts its sends and answers with the lead it created. */
function service() {
	let sends = 0;
	return {
		get sends() {
			return sends;
		},
		send: async (): Promise<INodeExecutionData[]> => {
			sends += 1;
			return [{ json: { id: `lead-${sends}`, name: 'Ana' } }];
		},
		check: async (): Promise<INodeExecutionData[]> => [{ json: { found: true } }],
	};
}

const unknownAnswer = () => Object.assign(new Error('The service did not answer'), { context: { outcome: 'unknown' } });

afterEach(() => jest.useRealTimers());

describe('the record of a write across n8n’s retries', () => {
	it('returns a confirmed write for an hour, and sends it again after that', async () => {
		jest.useFakeTimers({ now: new Date('2026-11-27T03:00:00Z') });
		const onceInExecution = freshRecord();
		const api = service();
		const first = await onceInExecution.call(tryOf('exec-hour'), 0, lead, api.send, api.check);

		jest.setSystemTime(new Date('2026-11-27T04:00:00Z'));
		await onceInExecution.call(tryOf('exec-hour'), 1, lead, api.send, api.check);
		expect(await onceInExecution.call(tryOf('exec-hour'), 0, lead, api.send, api.check)).toEqual(first);
		expect(api.sends).toBe(2);

		jest.setSystemTime(new Date('2026-11-27T04:00:00.001Z'));
		const later = await onceInExecution.call(tryOf('exec-hour'), 0, lead, api.send, api.check);
		expect(api.sends).toBe(3);
		expect(later).toEqual([{ json: { id: 'lead-3', name: 'Ana' } }]);
	});

	it('keeps 20,000 writes and lets the oldest go first', async () => {
		const onceInExecution = freshRecord();
		const api = service();
		const write = (item: number) => onceInExecution.call(tryOf('exec-many'), item, lead, api.send, api.check);
		for (let item = 0; item < 20_000; item++) await write(item);
		expect(api.sends).toBe(20_000);

		await write(0);
		expect(api.sends).toBe(20_000);

		await write(20_000);
		await write(1);
		expect(api.sends).toBe(20_001);
		await write(0);
		expect(api.sends).toBe(20_002);
	});

	it('returns a copy, so a later node changing the items cannot change what a retry returns', async () => {
		const onceInExecution = freshRecord();
		const api = service();
		const first = await onceInExecution.call(tryOf('exec-copy'), 0, lead, api.send, api.check);
		first[0].json.name = 'changed downstream';

		const retried = await onceInExecution.call(tryOf('exec-copy'), 0, lead, api.send, api.check);
		expect(retried).toEqual([{ json: { id: 'lead-1', name: 'Ana' } }]);
		retried[0].json.name = 'changed again';
		const again = await onceInExecution.call(tryOf('exec-copy'), 0, lead, api.send, api.check);
		expect(again).toEqual([{ json: { id: 'lead-1', name: 'Ana' } }]);
	});

	it('sends the same write again in another run of the node, for another item or outside an execution', async () => {
		const onceInExecution = freshRecord();
		const api = service();
		await onceInExecution.call(tryOf('exec-runs', 0), 0, lead, api.send, api.check);
		await onceInExecution.call(tryOf('exec-runs', 1), 0, lead, api.send, api.check);
		await onceInExecution.call(tryOf('exec-runs', 1), 1, lead, api.send, api.check);
		expect(api.sends).toBe(3);

		await onceInExecution.call(tryOf(undefined), 0, lead, api.send, api.check);
		await onceInExecution.call(tryOf(undefined), 0, lead, api.send, api.check);
		expect(api.sends).toBe(5);
	});

	it('sends another write of the same item, and the same write of another node, even one saved without an id', async () => {
		const onceInExecution = freshRecord();
		const api = service();
		await onceInExecution.call(tryOf('exec-other'), 0, lead, api.send, api.check);
		const otherLead = { ...lead, body: { ...lead.body, name: 'Bea' } };
		await onceInExecution.call(tryOf('exec-other'), 0, otherLead, api.send, api.check);
		await onceInExecution.call(tryOf('exec-other'), 0, { ...lead, body: undefined }, api.send, api.check);
		expect(api.sends).toBe(3);

		await onceInExecution.call(tryOf('exec-other', 0, { name: 'Create Lead' }), 0, lead, api.send, api.check);
		await onceInExecution.call(tryOf('exec-other', 0, { name: 'Create Lead Again' }), 0, lead, api.send, api.check);
		await onceInExecution.call(tryOf('exec-other', 0, { name: 'Create Lead Again' }), 0, lead, api.send, api.check);
		expect(api.sends).toBe(5);
	});

	it('checks instead of sending after an unknown outcome, for as long as the check cannot tell', async () => {
		const onceInExecution = freshRecord();
		let sends = 0;
		const lost = async (): Promise<INodeExecutionData[]> => {
			sends += 1;
			throw unknownAnswer();
		};
		let checks = 0;
		const checkFails = async (): Promise<INodeExecutionData[]> => {
			checks += 1;
			throw new Error('The search failed');
		};
		await expect(onceInExecution.call(tryOf('exec-lost'), 0, lead, lost, checkFails)).rejects.toThrow('did not answer');
		await expect(onceInExecution.call(tryOf('exec-lost'), 0, lead, lost, checkFails)).rejects.toThrow('search failed');
		await expect(onceInExecution.call(tryOf('exec-lost'), 0, lead, lost, checkFails)).rejects.toThrow('search failed');
		expect({ sends, checks }).toEqual({ sends: 1, checks: 2 });
	});

	it('sends again a write proven not applied', async () => {
		const onceInExecution = freshRecord();
		let sends = 0;
		const refused = async (): Promise<INodeExecutionData[]> => {
			sends += 1;
			throw Object.assign(new Error('Connection refused'), { context: { outcome: 'notSent' } });
		};
		const api = service();
		await expect(onceInExecution.call(tryOf('exec-refused'), 0, lead, refused, api.check)).rejects.toThrow('refused');
		await expect(onceInExecution.call(tryOf('exec-refused'), 0, lead, refused, api.check)).rejects.toThrow('refused');
		expect(sends).toBe(2);
	});
});
