/**
 * Prospecting Polling Trigger run through n8n-core's PollContext against the sandbox: every new lead,
 * new prospection and status change is emitted exactly once across polls, restarts, records sharing
 * a createdAt, records created while a poll walks the list, and rate limits in the middle of a poll.
 */
import '../../dev/harness';
import { PollWorkflowHandle } from '../../dev/harness/poll';
import { useSandbox } from '../support/sandbox';
import { call, existingLead } from '../support/service';

const { sandbox } = useSandbox({ writeLimit: 100_000, readLimit: 100_000, windowSeconds: 2 });
let counter = 0;

function trigger(parameters: Record<string, unknown>, staticData?: Record<string, unknown>) {
	return new PollWorkflowHandle({
		parameters: parameters as never,
		credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } },
		staticData: staticData as never,
	});
}

async function createLeads(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		counter += 1;
		ids.push(await existingLead(sandbox, { name: `Poll Lead ${counter}`, company: 'Polling Ltda', emails: [{ value: `poll${counter}@example.com`, label: 'work' }] }));
	}
	return ids;
}

async function startProspection(): Promise<string> {
	const [leadId] = await createLeads(1);
	const routine = sandbox.control.routines()[0];
	const added = await call(sandbox, 'POST', `/routines/${routine.id}/lead`, { body: { leadId, responsibleId: 'usr_poll' } });
	expect(added.status).toBeLessThan(300);
	const prospection = sandbox.control.prospections().find((p) => p.leadId === leadId);
	expect(prospection).toBeDefined();
	return prospection!.id;
}

function ids(records: Array<Record<string, unknown>>): string[] {
	return records.map((record) => String(record.id));
}

function leadReads(): number {
	return sandbox.control.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/leads')).length;
}

/** Resolves once the sandbox has answered `count` GET /leads. */
async function answeredLeadReads(count: number): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (Date.now() < deadline) {
		if (sandbox.control.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/leads') && r.status > 0).length >= count) return;
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	throw new Error(`the sandbox did not answer ${count} GET /leads in time`);
}

describe('New Lead', () => {
	it('emits nothing old on the first poll, then each new lead once, for one read per poll', async () => {
		const poll = trigger({ event: 'newLead' });
		expect(await poll.poll()).toEqual([]);
		expect(await poll.poll()).toEqual([]);
		const created = await createLeads(3);
		const before = leadReads();
		expect(ids(await poll.poll())).toEqual(created);
		expect(leadReads() - before).toBe(1);
		expect(await poll.poll()).toEqual([]);
	});

	it('Fetch Test Event returns the most recent lead and leaves the poll state alone', async () => {
		const poll = trigger({ event: 'newLead' });
		await poll.poll();
		const state = poll.staticData;
		const [newest] = await createLeads(2).then((list) => list.slice(-1));
		expect(ids(await poll.poll('manual'))).toEqual([newest]);
		expect(poll.staticData).toEqual(state);
		expect(await poll.poll()).toHaveLength(2);
	});

	it('keeps leads sharing a createdAt apart: none twice, none skipped', async () => {
		const poll = trigger({ event: 'newLead' });
		sandbox.control.setCreatedAt('2030-01-01T00:00:00.000Z');
		const first = await createLeads(2);
		await poll.poll();
		// Same timestamp as the starting point: new all the same.
		const second = await createLeads(3);
		expect(ids(await poll.poll()).sort()).toEqual([...second].sort());
		const third = await createLeads(2);
		expect(ids(await poll.poll()).sort()).toEqual([...third].sort());
		expect(await poll.poll()).toEqual([]);
		sandbox.control.setCreatedAt(null);
		const later = await createLeads(1);
		expect(ids(await poll.poll())).toEqual(later);
		expect(first).toHaveLength(2);
	});

	it('walks past one page and loses nothing created while it walks', async () => {
		const poll = trigger({ event: 'newLead' });
		await poll.poll();
		const backlog = await createLeads(150);
		sandbox.control.injectFault({ kind: 'latency', ms: 150 });
		const reads = leadReads();
		const running = poll.poll();
		await answeredLeadReads(reads + 1);
		// Page 1 is read: these push the rest of the list down while page 2 is asked for.
		const during = await createLeads(3);
		const firstEmit = ids(await running);
		sandbox.control.clearFaults();
		const secondEmit = ids(await poll.poll());
		const all = [...firstEmit, ...secondEmit];
		expect(new Set(all).size).toBe(all.length);
		expect([...all].sort()).toEqual([...backlog, ...during].sort());
		expect(firstEmit.slice(0, 150)).toEqual(backlog);
		expect(await poll.poll()).toEqual([]);
	});

	it('carries its starting point over a restart of n8n', async () => {
		const poll = trigger({ event: 'newLead' });
		await poll.poll();
		const before = await createLeads(2);
		expect(ids(await poll.poll())).toEqual(before);
		const restarted = poll.restart();
		const after = await createLeads(2);
		expect(ids(await restarted.poll())).toEqual(after);
		expect(await restarted.poll()).toEqual([]);
	});

	it('waits out a 429 in the middle of a poll and emits everything once', async () => {
		const poll = trigger({ event: 'newLead' });
		await poll.poll();
		const created = await createLeads(120);
		sandbox.control.injectFault({ kind: 'latency', ms: 50 });
		const reads = leadReads();
		const running = poll.poll();
		await answeredLeadReads(reads + 1);
		sandbox.control.injectFault({ kind: 'rate-limit', count: 1, retryAfterSeconds: 1 });
		expect(ids(await running)).toEqual(created);
		sandbox.control.clearFaults();
		expect(await poll.poll()).toEqual([]);
	});

	it('emits nothing partial when a poll cannot finish, and resumes on the next poll', async () => {
		const poll = trigger({ event: 'newLead' });
		await poll.poll();
		const state = poll.staticData;
		const created = await createLeads(120);
		sandbox.control.injectFault({ kind: 'latency', ms: 50 });
		const reads = leadReads();
		const running = poll.poll();
		await answeredLeadReads(reads + 1);
		// The service fails page 2 more often than a read is retried: the poll fails.
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, pathPrefix: '/api/v1/leads' });
		await expect(running).rejects.toThrow();
		sandbox.control.clearFaults();
		expect(poll.staticData).toEqual(state);
		expect(ids(await poll.poll())).toEqual(created);
	});
});

describe('New Prospection', () => {
	it('emits each started prospection once', async () => {
		const poll = trigger({ event: 'newProspection' });
		expect(await poll.poll()).toEqual([]);
		const first = await startProspection();
		const second = await startProspection();
		expect(ids(await poll.poll())).toEqual([first, second]);
		expect(await poll.poll()).toEqual([]);
		expect(ids(await poll.poll('manual'))).toEqual([second]);
	});
});

describe('Prospection Status Changed', () => {
	function prospectionReads(): number {
		return sandbox.control.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/prospections')).length;
	}

	it('finds each change into a watched status once, over a restart, for one read per watched status', async () => {
		const poll = trigger({ event: 'prospectionStatusChanged', statuses: ['FROZEN', 'WON'] });
		expect(await poll.poll()).toEqual([]);
		const [a, b, c] = sandbox.control.prospections().filter((p) => p.status === 'IN_PROGRESS').map((p) => p.id);
		await sandbox.control.setProspectionStatus(a, 'FROZEN');
		await sandbox.control.setProspectionStatus(b, 'WON');
		await sandbox.control.setProspectionStatus(c, 'LOST');
		const found = await poll.poll();
		expect(found.map((p) => `${String(p.id)}:${String(p.status)}`).sort()).toEqual([`${a}:FROZEN`, `${b}:WON`].sort());
		const before = prospectionReads();
		expect(await poll.poll()).toEqual([]);
		const frozenTotal = sandbox.control.prospections().filter((p) => p.status === 'FROZEN').length;
		const wonTotal = sandbox.control.prospections().filter((p) => p.status === 'WON').length;
		// Unchanged since the last poll: one read per watched status, whatever its size.
		expect(prospectionReads() - before).toBe(2);
		expect(frozenTotal + wonTotal).toBeGreaterThan(0);

		const restarted = poll.restart();
		// Resumed, then frozen again: a new entry into FROZEN.
		await sandbox.control.setProspectionStatus(a, 'IN_PROGRESS');
		expect(await restarted.poll()).toEqual([]);
		await sandbox.control.setProspectionStatus(a, 'FROZEN');
		expect(ids(await restarted.poll())).toEqual([a]);
		expect(await restarted.poll()).toEqual([]);
	});

	it('sees a swap that leaves the count unchanged when checking every poll', async () => {
		const poll = trigger({ event: 'prospectionStatusChanged', statuses: ['FROZEN'], checkMode: 'everyPoll' });
		await poll.poll();
		const frozen = sandbox.control.prospections().find((p) => p.status === 'FROZEN');
		const running = sandbox.control.prospections().find((p) => p.status === 'IN_PROGRESS');
		expect(frozen && running).toBeTruthy();
		await sandbox.control.setProspectionStatus(frozen!.id, 'IN_PROGRESS');
		await sandbox.control.setProspectionStatus(running!.id, 'FROZEN');
		expect(ids(await poll.poll())).toEqual([running!.id]);
	});

	it('Fetch Test Event returns the most recent prospection in a watched status', async () => {
		const poll = trigger({ event: 'prospectionStatusChanged', statuses: ['WON', 'LOST'] });
		const decided = sandbox.control
			.prospections()
			.filter((p) => p.status === 'WON' || p.status === 'LOST')
			.sort((x, y) => (x.createdAt < y.createdAt ? 1 : x.createdAt > y.createdAt ? -1 : x.id < y.id ? 1 : -1));
		const [record] = await poll.poll('manual');
		expect(record.createdAt).toBe(decided[0].createdAt);
	});
});
