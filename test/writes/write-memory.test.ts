/**
 * What a process remembers about writes (actions/writeMemory.ts), by its own rules, which no workflow reaches in a
 * test's time: a write's try lives until the node's last try is over, however long a try runs; another run, item or
 * node is a write of its own; a contact's turn goes one create at a time, and a doubt left by a create (a Stop
 * included) lasts its window from then. The engine tests show them where users see them (test/faults, test/nodes).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import type { Doubt } from '../../nodes/Prospecting/actions/writeMemory';

type WriteMemory = typeof import('../../nodes/Prospecting/actions/writeMemory');

/** A fresh memory (the module's own), so that what one test leaves does not reach another. */
function freshMemory(): WriteMemory {
	let module: WriteMemory | undefined;
	jest.isolateModules(() => {
		module = require('../../nodes/Prospecting/actions/writeMemory') as WriteMemory;
	});
	return module!;
}

/** What the memory reads of n8n's execute context: the execution, the node (and its Retry On Fail) and the run. */
function contextOf(executionId: string | undefined, runIndex = 0, node: Partial<INode> = {}): IExecuteFunctions {
	const settings = { id: 'prospecting-1', name: 'Prospecting', retryOnFail: true, maxTries: 3, waitBetweenTries: 1000, ...node };
	return { getExecutionId: () => executionId, getNode: () => settings, runIndex } as unknown as IExecuteFunctions;
}

/** A write that counts its sends and answers with the lead it created. */
function service() {
	let sends = 0;
	return {
		get sends() {
			return sends;
		},
		send: async (sending: (detail: string) => void): Promise<INodeExecutionData[]> => {
			sends += 1;
			sending(`send ${sends}`);
			return [{ json: { id: `lead-${sends}`, name: 'Ana' } }];
		},
		again: async (detail: string): Promise<INodeExecutionData[]> => [{ json: { lookedFor: detail } }],
	};
}

const lostAnswer = () => Object.assign(new Error('The service did not answer'), { context: { writeOutcome: 'unknown' } });
const refused = () => Object.assign(new Error('Refused'), { context: { writeOutcome: 'refused' } });
const notSent = () => Object.assign(new Error('Connection refused'), { context: { writeOutcome: 'notSent' } });
/** A try that fails, as n8n sees one it will run again. */
const failedTry = async (): Promise<INodeExecutionData[][]> => [[{ json: { error: 'failed' } }]];

afterEach(() => jest.useRealTimers());

describe('a write\'s try, across n8n\'s Retry On Fail', () => {
	it('is kept for the next try however long a try runs, here an hour and more, and forgotten after the last try', async () => {
		jest.useFakeTimers({ now: new Date('2026-11-27T03:00:00Z') });
		const { duringTry, writeOnce } = freshMemory();
		const api = service();
		const context = contextOf('exec-hour');
		await duringTry(context, async () => {
			await writeOnce(context, 0, api);
			jest.setSystemTime(new Date('2026-11-27T05:00:00Z'));
			return await failedTry();
		});
		jest.setSystemTime(new Date('2026-11-27T05:00:05Z'));
		const second = await duringTry(context, async () => [await writeOnce(context, 0, api)]);
		expect({ sends: api.sends, second }).toEqual({ sends: 1, second: [[{ json: { id: 'lead-1', name: 'Ana' } }]] });

		// The try succeeded: n8n runs the node no more, and a write of this item now is another run's.
		await duringTry(context, async () => [await writeOnce(context, 0, api)]);
		expect(api.sends).toBe(2);
	});

	it('is forgotten once n8n has no try left, and when the next try does not come within its wait', async () => {
		jest.useFakeTimers({ now: new Date('2026-11-27T03:00:00Z') });
		const { duringTry, writeOnce } = freshMemory();
		const api = service();
		const failingTry = async (context: IExecuteFunctions) =>
			await duringTry(context, async () => {
				await writeOnce(context, 0, api);
				return await failedTry();
			});
		const once = contextOf('exec-once', 0, { retryOnFail: false });
		await failingTry(once);
		await failingTry(once);
		expect(api.sends).toBe(2);

		const late = contextOf('exec-late', 0, { waitBetweenTries: 5000 });
		await failingTry(late);
		jest.setSystemTime(new Date('2026-11-27T03:02:00Z'));
		await duringTry(late, async () => [await writeOnce(late, 0, api)]);
		expect(api.sends).toBe(4);
	});

	it('looks again (never sends) for a write sent with its outcome unknown, and sends again one proven not applied', async () => {
		const { duringTry, writeOnce } = freshMemory();
		const context = contextOf('exec-lost');
		let sends = 0;
		const lost = { send: async (sending: (detail: string) => void) => { sends += 1; sending('first'); throw lostAnswer(); }, again: service().again };
		await duringTry(context, async () => {
			await expect(writeOnce(context, 0, lost)).rejects.toThrow('did not answer');
			return await failedTry();
		});
		const second = await duringTry(context, async () => [await writeOnce(context, 0, lost)]);
		expect({ sends, second }).toEqual({ sends: 1, second: [[{ json: { lookedFor: 'first' } }]] });

		const other = contextOf('exec-refused');
		let attempts = 0;
		const refusedFirst = {
			send: async (sending: (detail: string) => void) => {
				attempts += 1;
				sending(`attempt ${attempts}`);
				if (attempts === 1) throw refused();
				return [{ json: { id: 'lead-1' } }];
			},
			again: service().again,
		};
		await duringTry(other, async () => {
			await expect(writeOnce(other, 0, refusedFirst)).rejects.toThrow('Refused');
			return await failedTry();
		});
		await duringTry(other, async () => [await writeOnce(other, 0, refusedFirst)]);
		expect(attempts).toBe(2);
	});

	it('is of one execution, node, run and item: another run (a loop), item, node or no execution sends its own', async () => {
		const { duringTry, writeOnce } = freshMemory();
		const api = service();
		const tryOf = async (context: IExecuteFunctions, item: number) =>
			await duringTry(context, async () => {
				await writeOnce(context, item, api);
				return await failedTry();
			});
		await tryOf(contextOf('exec-runs', 0), 0);
		await tryOf(contextOf('exec-runs', 1), 0);
		await tryOf(contextOf('exec-runs', 1), 1);
		await tryOf(contextOf('exec-runs', 1, { id: 'prospecting-2' }), 1);
		await tryOf(contextOf(undefined), 0);
		await tryOf(contextOf(undefined), 0);
		expect(api.sends).toBe(6);
	});

	it('returns a copy, so that a later node changing the items cannot change what a later try returns', async () => {
		const { duringTry, writeOnce } = freshMemory();
		const api = service();
		const context = contextOf('exec-copy');
		await duringTry(context, async () => {
			const first = await writeOnce(context, 0, api);
			first[0].json.name = 'changed downstream';
			return await failedTry();
		});
		const [[retried]] = await duringTry(context, async () => [await writeOnce(context, 0, api)]);
		expect(retried).toEqual({ json: { id: 'lead-1', name: 'Ana' } });
	});
});

/** A create that runs until `finish` is called, recording when it starts. */
function pendingTask(name: string, started: string[]) {
	let finish!: () => void;
	const done = new Promise<void>((resolve) => (finish = resolve));
	return {
		task: async (): Promise<INodeExecutionData[]> => {
			started.push(name);
			await done;
			return [{ json: { name } }];
		},
		finish: () => finish(),
	};
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

type Send = (sending: (detail: Doubt) => void, doubt?: Doubt & { until: number }) => Promise<INodeExecutionData[]>;

/** A create of these contacts of one account, outside an execution (no try to remember); it `waits` for their turn. */
const createWith = (memory: WriteMemory) => async (keys: string[], send: Send, waits = true) =>
	await memory.writeOnce<Doubt>(contextOf(undefined), 0, { contacts: { account: 'account', keys, waits }, send, again: async () => [] });

/** A create that sends and then fails with `error`, leaving what it sent to the memory's rules. */
const failingAfterSending = (doubt: Doubt, error: Error): Send => async (sending) => {
	sending(doubt);
	throw error;
};

/** The doubt a create of these contacts is told of. */
const doubtOn = async (create: ReturnType<typeof createWith>, keys: string[]) => (await create(keys, async (_sending, doubt) => [{ json: { doubt } }]))[0].json.doubt;

describe('a contact\'s turn and doubt', () => {
	it('three creates for one contact run one after another, and two holding the same contacts in opposite orders both finish', async () => {
		const create = createWith(freshMemory());
		const started: string[] = [];
		const [first, second, third] = ['first', 'second', 'third'].map((name) => pendingTask(name, started));
		const runs = [create(['email:ana'], first.task), create(['email:ana'], second.task)];
		await settle();
		expect(started).toEqual(['first']);
		first.finish();
		await settle();
		runs.push(create(['email:ana'], third.task));
		await settle();
		expect(started).toEqual(['first', 'second']);
		second.finish();
		await settle();
		third.finish();
		await expect(Promise.all(runs)).resolves.toEqual(['first', 'second', 'third'].map((name) => [{ json: { name } }]));

		const order: string[] = [];
		const named = (name: string) => async () => [{ json: { name: order.push(name) } }];
		await Promise.all([create(['email:b', 'email:a'], named('b-a')), create(['email:a', 'email:b'], named('a-b'))]);
		expect(order).toEqual(['b-a', 'a-b']);
	});

	it('leaves a create stopped before it was settled in doubt for its window from then, then forgets it', async () => {
		jest.useFakeTimers({ now: new Date('2026-11-27T03:00:00Z'), doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
		const create = createWith(freshMemory());
		const sent = { sentAt: Date.now(), windowMs: 180_000 };
		const stopped: Send = async (sending) => {
			sending(sent);
			jest.setSystemTime(new Date('2026-11-27T03:01:00Z'));
			throw new Error('The execution was cancelled');
		};
		await expect(create(['email:ana', 'number:1133334444'], stopped)).rejects.toThrow('cancelled');
		jest.setSystemTime(new Date('2026-11-27T03:03:59Z'));
		expect(await doubtOn(create, ['number:1133334444'])).toEqual({ ...sent, until: Date.parse('2026-11-27T03:04:00Z') });
		jest.setSystemTime(new Date('2026-11-27T03:04:00Z'));
		expect(await doubtOn(create, ['number:1133334444'])).toBeUndefined();
	});

	it('leaves no doubt for a create proven not applied (refused, not sent), and a doubt for one whose outcome is unknown', async () => {
		const create = createWith(freshMemory());
		const sent = { sentAt: Date.now(), windowMs: 180_000 };
		await expect(create(['email:recusada'], failingAfterSending(sent, refused()))).rejects.toThrow('Refused');
		await expect(create(['email:nao.enviada'], failingAfterSending(sent, notSent()))).rejects.toThrow('Connection refused');
		await expect(create(['email:perdida'], failingAfterSending(sent, lostAnswer()))).rejects.toThrow('did not answer');
		const doubts = { refused: await doubtOn(create, ['email:recusada']), notSent: await doubtOn(create, ['email:nao.enviada']), lost: await doubtOn(create, ['email:perdida']) };
		expect(doubts).toEqual({ refused: undefined, notSent: undefined, lost: expect.objectContaining(sent) });
	});

	it('tells a create of several contacts the latest doubt on any of them', async () => {
		const create = createWith(freshMemory());
		const [earlier, later] = [{ sentAt: Date.now() - 2000, windowMs: 180_000 }, { sentAt: Date.now() - 1000, windowMs: 180_000 }];
		await expect(create(['email:ana'], failingAfterSending(later, lostAnswer()))).rejects.toThrow('did not answer');
		await expect(create(['number:1133334444'], failingAfterSending(earlier, lostAnswer()))).rejects.toThrow('did not answer');
		expect(await doubtOn(create, ['number:1133334444', 'email:ana'])).toMatchObject(later);
	});

	it('a later try that looks on and does not find the lead leaves its contacts in doubt a window from its own end', async () => {
		jest.useFakeTimers({ now: new Date('2026-11-27T03:00:00Z'), doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
		const memory = freshMemory();
		const context = contextOf('exec-look-on');
		const sent = { sentAt: Date.now(), windowMs: 60_000 };
		const write = {
			contacts: { account: 'account', keys: ['email:ana'], waits: true },
			send: failingAfterSending(sent, lostAnswer()),
			// The look runs past the window of the first send, and does not find the lead.
			again: async () => {
				jest.setSystemTime(new Date('2026-11-27T03:01:30Z'));
				throw lostAnswer();
			},
		};
		for (let attempt = 0; attempt < 2; attempt++) {
			await memory.duringTry(context, async () => {
				await expect(memory.writeOnce<Doubt>(context, 0, write)).rejects.toThrow('did not answer');
				return await failedTry();
			});
		}
		jest.setSystemTime(new Date('2026-11-27T03:02:29Z'));
		expect(await doubtOn(createWith(memory), ['email:ana'])).toMatchObject(sent);
	});

	it('a create that does not wait leaves its doubt beside a holder, and another create settling does not clear it', async () => {
		const create = createWith(freshMemory());
		const lost = { sentAt: Date.now(), windowMs: 180_000 };
		let release!: () => void;
		const holding = new Promise<void>((resolve) => (release = resolve));
		// A create that looks first holds the contact; two that do not wait go beside it at once.
		const holder = create(['email:ana'], async () => {
			await holding;
			return [];
		});
		await expect(create(['email:ana'], failingAfterSending(lost, lostAnswer()), false)).rejects.toThrow('did not answer');
		await create(['email:ana'], async () => [{ json: {} }], false);
		release();
		await holder;
		expect(await doubtOn(create, ['email:ana'])).toMatchObject(lost);
	});

	it('keeps at most 100,000 entries: past them, the oldest go first', async () => {
		const create = createWith(freshMemory());
		for (let contact = 0; contact <= 100_000; contact++) {
			await create([`email:${contact}`], failingAfterSending({ sentAt: contact, windowMs: 60_000 }, lostAnswer())).catch(() => undefined);
		}
		expect(await doubtOn(create, ['email:0'])).toBeUndefined();
		expect(await doubtOn(create, ['email:100000'])).toMatchObject({ sentAt: 100_000 });
	});

	it('keeps nothing for a contact once its last create is settled: a long-running n8n seeing many contacts does not grow', async () => {
		const memory = freshMemory();
		const create = createWith(memory);
		setFlagsFromString('--expose-gc');
		const collectGarbage = runInNewContext('gc') as () => void;
		const contacts = 100_000;
		const heapAfterGc = () => {
			collectGarbage();
			return process.memoryUsage().heapUsed;
		};
		const settled: Send = async () => [];
		await create(['email:warm'], settled);
		const before = heapAfterGc();
		for (let index = 0; index < contacts; index++) await create([`email:contato.${index}`], settled);
		// Kept entries would take well over 100 bytes per contact. The memory is read after, so it is not collected itself.
		expect(heapAfterGc() - before).toBeLessThan(contacts * 20);
		expect(await doubtOn(createWith(memory), ['email:contato.0'])).toBeUndefined();
	});
});
