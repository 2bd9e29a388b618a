/**
 * Counterexamples the write-path fault schedules found, each kept as a named schedule (test/faults/writes/) with the
 * assertion that failed on it. Every one is also judged by all the invariants, as the random runs judge theirs.
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../support/sandbox';
import { historyStory, reportsOf, violationsOf } from './writes/judge';
import { runWriteSchedule, type WriteHistory } from './writes/run';
import type { LeadItem, NodeSettings, PlannedFault, PoolItem, WriteSchedule } from './writes/schedule';

const { sandbox } = useSandbox({ rateLimit: false, dataset: { leads: 20, routines: 3, prospections: 5 } });

const settings = (changes: Partial<NodeSettings> = {}): NodeSettings => ({
	maxTries: 1,
	waitBetweenTriesMs: 1,
	continueOnFail: false,
	skipIfExists: false,
	retryWhenNotCreated: false,
	lostLeadSearchSeconds: 30,
	...changes,
});

const ana = (changes: Partial<LeadItem> = {}): LeadItem => ({ person: 0, email: 0, phone: 'none', name: 'person', company: 'person', ...changes });

function schedule(parts: Partial<WriteSchedule> & Pick<WriteSchedule, 'first'>): WriteSchedule {
	return { operation: 'leadCreate', node: settings(), service: { clockOffsetMs: 0, dateHeader: true }, existing: [], retried: false, faults: [], ...parts };
}

const onFirstWrite = (fault: PlannedFault['fault'], nth = 0): PlannedFault => ({ execution: 0, on: 'write', nth, fault });

let last: WriteHistory | undefined;

/** Runs the schedule; the test asserts what its case is about, then every invariant is judged (afterEach). */
async function replay(parts: Partial<WriteSchedule> & Pick<WriteSchedule, 'first'>): Promise<WriteHistory & { said: (execution?: number) => IDataObject[] }> {
	const history = await runWriteSchedule(sandbox, schedule(parts));
	last = history;
	const said = (execution = 0) =>
		reportsOf(history.executions.find((run) => run.index === execution)!).map((report) =>
			report.kind === 'success' ? { id: report.json.id, outcome: report.json.leadOutcome ?? 'success' } : report.kind === 'error' ? { outcome: report.outcome } : {},
		);
	return Object.assign(history, { said });
}

afterEach(() => {
	const history = last;
	last = undefined;
	const violations = history ? violationsOf(history) : [];
	if (history && violations.length > 0) throw new Error(`${violations.map((violation) => violation.text).join('\n')}\n\n${historyStory(history)}`);
});

/** The leads the run made for an item (its tag is its contacts' label). */
const leadsOf = (history: WriteHistory, tag: string) =>
	history.leads.filter((lead) => [...lead.emails, ...lead.phones].some((contact) => contact.label === tag)).map((lead) => lead.id);

describe('Lead Create: the service clock', () => {
	it('A: a create lost after its commit, the service 3 minutes behind: its searches\' Date headers place the lead, found and not "may exist"', async () => {
		const history = await replay({ first: [ana()], service: { clockOffsetMs: -180_000, dateHeader: true }, faults: [onFirstWrite({ kind: 'lost', when: 'after-commit' })] });
		expect(history.said()).toEqual([{ id: leadsOf(history, 'e1i0')[0], outcome: 'found' }]);
	});

	it('A: the same with Send Again If Not Found: the lead is found, never sent again', async () => {
		const history = await replay({
			first: [ana()],
			node: settings({ retryWhenNotCreated: true }),
			service: { clockOffsetMs: -180_000, dateHeader: true },
			faults: [onFirstWrite({ kind: 'lost', when: 'after-commit' })],
		});
		expect(leadsOf(history, 'e1i0')).toHaveLength(1);
	});

	it('A2: a create lost before its commit, for a contact whose identical lead was made 3 s earlier: the older lead is not claimed', async () => {
		const history = await replay({
			first: [ana()],
			existing: [{ person: 0, kind: 'identical', item: 0, ageSeconds: 3 }],
			faults: [onFirstWrite({ kind: 'lost', when: 'before-commit' })],
		});
		expect(history.said()).toEqual([{ outcome: 'unknown' }]);
	});
});

describe('Lead Create under Retry On Fail', () => {
	it('B: a batch that runs longer than an hour: the early items are not sent again by the next try', async () => {
		const history = await replay({
			first: [ana(), ana({ person: 1 }), ana({ email: 'fresh' })],
			node: settings({ maxTries: 2 }),
			faults: [onFirstWrite({ kind: 'held', ms: 61 * 60_000 }, 1), onFirstWrite({ kind: '5xx', status: 503, when: 'before-commit' }, 2)],
		});
		expect(['e1i0', 'e1i1'].map((tag) => leadsOf(history, tag).length)).toEqual([1, 1]);
	});

	it('C: a name that changes on every try (an expression): a create confirmed in the first try is returned, not sent again', async () => {
		const history = await replay({
			first: [ana({ name: 'changes' }), ana({ person: 1, name: 'changes' })],
			node: settings({ maxTries: 3 }),
			faults: [onFirstWrite({ kind: '5xx', status: 503, when: 'before-commit' }, 1)],
		});
		expect(history.requests.filter((request) => request.method === 'POST')).toHaveLength(2);
		expect(leadsOf(history, 'e1i0')).toHaveLength(1);
	});

	it('C: a name that changes on every try, the first try\'s create committed after its search window: the next try finds that lead', async () => {
		const history = await replay({
			first: [ana({ name: 'changes' })],
			node: settings({ maxTries: 2, waitBetweenTriesMs: 5000, continueOnFail: true, lostLeadSearchSeconds: 1 }),
			faults: [onFirstWrite({ kind: 'slow-commit', commitAfterMs: 4000, gatewayTimeoutMs: 500 })],
		});
		expect(history.said()).toEqual([{ id: leadsOf(history, 'e1i0')[0], outcome: 'found' }]);
	});
});

describe('Lead Create retried from the executions list', () => {
	it('H: a create ended "may exist" (the service slower than the search window), then the execution retried: while the contact is in doubt the retry looks and sends nothing', async () => {
		const history = await replay({
			first: [ana({ email: 'fresh' })],
			node: settings({ maxTries: 2, lostLeadSearchSeconds: 180 }),
			retried: true,
			faults: [onFirstWrite({ kind: 'slow-commit', commitAfterMs: 240_000, gatewayTimeoutMs: 100_000 })],
		});
		expect(history.said(2)).toEqual([{ outcome: 'unknown' }]);
		expect(history.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
		expect(leadsOf(history, 'e1i0')).toHaveLength(1);
	});
});

describe('Lead Create with Skip If Exists', () => {
	it('D: a new e-mail and the phone of an existing lead: the existing lead is returned, no second lead', async () => {
		const history = await replay({
			first: [ana({ email: 'fresh', phone: 0, name: 'none' })],
			node: settings({ skipIfExists: true }),
			existing: [{ person: 0, kind: 'phoneOnly', item: 0, ageSeconds: 60 }],
		});
		expect(history.said()).toEqual([{ id: expect.any(String), outcome: 'found' }]);
		expect(leadsOf(history, 'e1i0')).toEqual([]);
	});

	it('E: a Stop while looking for a lead whose create is slow to commit, then a form for the same contact: no second lead', async () => {
		const history = await replay({
			first: [ana({ name: 'none', company: 'none' })],
			node: settings({ skipIfExists: true, lostLeadSearchSeconds: 180 }),
			second: { when: 'after', items: [ana({ name: 'none', company: 'none' })] },
			stop: { execution: 0, on: 'read', nth: 2 },
			faults: [onFirstWrite({ kind: 'slow-commit', commitAfterMs: 60_000, gatewayTimeoutMs: 30_000 })],
		});
		// The second looks for the first one's lead over the rest of its window, and finds it once committed.
		expect(leadsOf(history, 'e2i0')).toEqual([]);
		expect(history.said(1)).toEqual([{ id: leadsOf(history, 'e1i0')[0], outcome: 'found' }]);
	});
});

describe('Answers that are not the write\'s', () => {
	it('F: a 201 JSON record of another contact is not taken for the created lead: the lead sent is looked for and found', async () => {
		const history = await replay({ first: [ana()], faults: [onFirstWrite({ kind: 'another-record', when: 'after-commit' })] });
		expect(history.said()).toEqual([{ id: leadsOf(history, 'e1i0')[0], outcome: 'found' }]);
	});

	it('F: Routine Add Lead answered with a record of another lead: never reported added', async () => {
		const history = await replay({
			operation: 'routineAddLead',
			first: [{ record: 0, changes: false } as PoolItem],
			node: settings({ continueOnFail: true }),
			faults: [onFirstWrite({ kind: 'another-record', when: 'before-commit' })],
		});
		expect(history.said()).toEqual([{ outcome: 'unknown' }]);
	});

	it('F: Webhook Create answered with another webhook: never reported created', async () => {
		const history = await replay({
			operation: 'webhookCreate',
			first: [{ record: 0, changes: false } as PoolItem],
			node: settings({ continueOnFail: true }),
			faults: [onFirstWrite({ kind: 'another-record', when: 'after-commit' })],
		});
		expect(history.said()).toEqual([{ outcome: 'unknown' }]);
	});
});

describe('Send Again If Not Found', () => {
	it('the second send refused after the first one\'s outcome stayed unknown: the item still says unknown, as the first may land', async () => {
		const history = await replay({
			first: [ana()],
			node: settings({ retryWhenNotCreated: true, continueOnFail: true }),
			faults: [onFirstWrite({ kind: '5xx', status: 500, when: 'before-commit' }), onFirstWrite({ kind: 'redirect', status: 301 }, 1)],
		});
		expect(history.said()).toEqual([{ outcome: 'unknown' }]);
	});
});

describe('Routine Add Lead under Retry On Fail', () => {
	it('C: a responsible that changes on every try (an expression): the lead is added once', async () => {
		const history = await replay({
			operation: 'routineAddLead',
			first: [{ record: 0, changes: true } as PoolItem, { record: 1, changes: true } as PoolItem],
			node: settings({ maxTries: 3 }),
			faults: [onFirstWrite({ kind: '5xx', status: 503, when: 'before-commit' }, 1)],
		});
		expect(history.requests.filter((request) => request.method === 'POST' && request.applied).map((request) => (request.body as IDataObject).leadId)).toHaveLength(1);
	});
});
