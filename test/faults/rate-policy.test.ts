/**
 * The rate policy's guarantees as invariants over random schedules (rate-schedule.ts) run on a simulated clock
 * (rate-model.ts): thousands of schedules a second, each judged from its history alone. `npm test` runs a fixed seed;
 * `npm run faults -- --only rate --runs N --seed S` runs as many as asked. A failure prints its seed, path and shrunk
 * schedule as a story; `--seed S --path P -t <the property's name>` replays it.
 */
import fc from 'fast-check';

import { DATE_RESOLUTION_MS, LONGEST_HOLD_MS } from '../../nodes/Prospecting/transport/rateRules';
import { simulate, type Happening, type Schedule, type Service } from './rate-model';
import { isTruthful, schedules, sharedKeyLoads } from './rate-schedule';
import { runSize } from './run-size';

/** Fails naming the invariant and the event that breaks it. */
function check(holds: boolean, invariant: string, at?: Happening): void {
	if (!holds) throw new Error(`${invariant}${at ? ` (at ${at.t} ms: ${JSON.stringify(at)})` : ''}`);
}

const of = <W extends Happening['what']>(history: Happening[], what: W) => history.filter((h): h is Extract<Happening, { what: W }> => h.what === what);

const unitOf = (schedule: Schedule) => ({ 'epoch-seconds': 'epochSeconds', 'epoch-ms': 'epochMs', 'delta-seconds': 'secondsFromNow', none: undefined })[schedule.service.reset];

/**
 * Whether a budget would read a reset earlier than it is: an epoch reset of a service clock behind this one, with no
 * Date or one within its resolution (a second), which no client can tell.
 */
function resetsReadEarly(schedule: Schedule): boolean {
	const { reset, clockSkewMs, sendsDate } = schedule.service;
	const read = schedule.credentials.some((c) => c.resetUnit === 'auto' || c.resetUnit === unitOf(schedule));
	return read && reset.startsWith('epoch') && clockSkewMs < 0 && !(sendsDate && clockSkewMs <= -1000);
}

/** Whether the service's answers let a budget know where each window ends: a reset it reads, on a clock it reads. */
function endsReadable(schedule: Schedule): boolean {
	return unitOf(schedule) !== undefined && !resetsReadEarly(schedule) && schedule.credentials.every((c) => c.resetUnit === 'auto' || c.resetUnit === unitOf(schedule));
}

/**
 * Whether each 429 tells how long to wait in a form a budget reads, and no epoch reset read early by less than a
 * resolution comes before it: a Retry-After in seconds, rounded up, cannot tell that clock apart from an exact one.
 */
function refusalsReadable(schedule: Schedule): boolean {
	const { retryAfter, clockSkewMs, sendsDate } = schedule.service;
	if (resetsReadEarly(schedule) && clockSkewMs > -DATE_RESOLUTION_MS) return false;
	return retryAfter === 'seconds' || (retryAfter === 'date' && (clockSkewMs === 0 || (sendsDate && Math.abs(clockSkewMs) >= 1000))) || endsReadable(schedule);
}

function invariants(schedule: Schedule): void {
	const { history } = simulate(schedule);
	const calls = schedule.calls;
	const answers = of(history, 'answer');

	for (const answer of answers) check(answer.holdMs <= LONGEST_HOLD_MS, 'no hold is longer than LONGEST_HOLD_MS', answer);
	if (schedule.service.retryAfter === 'seconds' && schedule.credentials.every((c) => c.windowMs >= schedule.service.windowMs) && schedule.changes.length === 0) {
		// Where every 429 says how long to wait, a hold ends when the latest of them asked, or a second after its 429.
		const askedUntil = new Map<string, number>();
		for (const h of history) {
			if (h.what === 'counted' && h.status === 429) {
				const budget = `${schedule.calls[h.call].process}|${schedule.credentials[schedule.calls[h.call].credential].key}|${schedule.calls[h.call].kind}`;
				const answeredAt = h.t + schedule.calls[h.call].tripMs[1];
				askedUntil.set(budget, Math.max(askedUntil.get(budget) ?? 0, answeredAt + Number(h.headers['retry-after']) * 1000));
			}
			if (h.what === 'answer' && h.holdMs > 0) {
				const budget = `${schedule.calls[h.call].process}|${schedule.credentials[schedule.calls[h.call].credential].key}|${schedule.calls[h.call].kind}`;
				check(h.t + h.holdMs <= Math.max(askedUntil.get(budget) ?? 0, h.t + DATE_RESOLUTION_MS), 'a 429 holds the key no longer than the service asked (its Retry-After), or a second', h);
			}
		}
	}
	for (const send of of(history, 'send')) check(send.ahead === 0, 'a call goes only when no call that asked before it still waits', send);
	for (const ask of of(history, 'ask')) check(ask.apart === 0, 'one budget per key and kind in a process, whatever the base URL or credential', ask);
	for (const swept of of(history, 'swept')) check(!swept.holding, 'a budget is never dropped while it holds or counts calls or a call of it has not ended', swept);
	const ended = new Set([...of(history, 'done'), ...of(history, 'fail'), ...of(history, 'stopped')].map((h) => h.call));
	check(calls.every((_, index) => ended.has(index)), `every call ends (these never did: ${calls.map((_, i) => i).filter((i) => !ended.has(i)).join(', ')})`);

	for (const fail of of(history, 'fail')) {
		const call = calls[fail.call];
		const deadline = call.at + call.maxWaitMs;
		// As a tool, no wait passes the tool call's deadline: a call fails by then, or at once when an answer that came
		// later shows it could go only after it. In a workflow only a 429's hold can fail a call.
		const answeredThen = history.some((h) => (h.what === 'answer' || h.what === 'dropped') && h.call === fail.call && h.t === fail.t);
		const needed = fail.neededMs === undefined ? fail.t >= deadline : fail.t + fail.neededMs > deadline;
		if (call.tool && fail.reason === 'rate') check((fail.t <= deadline || answeredThen) && needed, 'a tool call fails only for a wait past its deadline, and by then', fail);
		if (!call.tool && fail.reason === 'rate') check(fail.held && (fail.neededMs ?? 0) <= LONGEST_HOLD_MS, 'a workflow call fails only for a hold of a 429 longer than its maximum', fail);
	}
	for (const send of of(history, 'send')) {
		const call = calls[send.call];
		check(!call.tool || send.t <= call.at + call.maxWaitMs, 'no tool call is sent past its deadline', send);
		check(call.stopAt === undefined || send.t < call.stopAt, 'a stopped call is never sent after its Stop', send);
	}

	if (!isTruthful(schedule)) return;
	const refusals = answers.filter((answer) => answer.status === 429);
	if (schedule.service.headers === 'always' && !resetsReadEarly(schedule)) {
		check(refusals.length === 0, 'with headers on every answer one process draws no 429 from a fixed window', refusals[0]);
	} else if (refusalsReadable(schedule)) {
		// A budget learns where the service's windows end from one refusal, and keeps in step from then on; out of
		// step again (its calls too sparse to keep it), it may learn again, never twice in one window.
		const perWindow = new Map<string, number>();
		for (const counted of of(history, 'counted').filter((c) => c.status === 429)) {
			const call = calls[counted.call];
			const key = `${schedule.credentials[call.credential].key}|${call.kind}|${counted.window}`;
			perWindow.set(key, (perWindow.get(key) ?? 0) + 1);
			check((perWindow.get(key) ?? 0) <= 1, 'with headers only on 429, at most one refusal per budget in a window, while it learns where windows end', counted);
		}
	}
}

/** Counterexamples the schedules found, each kept as the schedule that showed it. */
describe('the rate policy on schedules that once broke it', () => {
	it('a read between its tries after dropped connections keeps its budget: a read of the same key 4 s later shares it, with a 500 ms window', () => {
		const credential = { key: 'k0', baseUrl: 'https://api.example.com', limit: { read: 5, write: 5 }, windowMs: 500, processes: 1, resetUnit: 'auto' as const };
		const read = { process: 0, credential: 0, kind: 'read' as const, tripMs: [10, 10] as [number, number], tool: false, maxWaitMs: 300_000 };
		const schedule: Schedule = {
			service: { windowMs: 1000, limit: { read: 5, write: 5 }, windows: 'first-call', phaseMs: 0, headers: 'always', reset: 'epoch-ms', retryAfter: 'seconds', clockSkewMs: 0, sendsDate: true },
			credentials: [credential],
			processes: 1,
			// The first read's connection drops five times: it waits 0.3, 0.6, 1.2 and 2.4 s between its tries.
			calls: [{ ...read, at: 0, drops: 5 }, { ...read, at: 4000, drops: 0 }],
			others: [],
			changes: [],
		};
		invariants(schedule);
	});

	// Found by `npm run faults -- --only rate --runs 100000 --seed 5656`: a time on the clock of a service 5 s behind,
	// without Date, read 4 s early, came before the one counted from now and held the key too short.
	const twoReads = (service: Partial<Service>, first: [number, [number, number]], second: [number, [number, number]]): Schedule => ({
		service: { windowMs: 60_000, limit: { read: 1, write: 5 }, windows: 'first-call', phaseMs: 0, headers: 'always', reset: 'epoch-seconds', retryAfter: 'seconds', clockSkewMs: -5000, sendsDate: false, ...service },
		credentials: [{ key: 'k0', baseUrl: 'https://api.example.com', limit: { read: 1, write: 1 }, windowMs: 60_000, processes: 1, resetUnit: 'auto' }],
		processes: 1,
		calls: [
			{ at: first[0], process: 0, credential: 0, kind: 'read', tripMs: first[1], tool: false, maxWaitMs: 0, drops: 0 },
			{ at: second[0], process: 0, credential: 0, kind: 'read', tripMs: second[1], tool: true, maxWaitMs: 300_000, drops: 0 },
		],
		others: [],
		changes: [],
	});

	it('a 429 whose epoch reset has already passed holds until its Retry-After in seconds: a service clock 5 s behind, without Date, refuses a read once, not twice', () => {
		invariants(twoReads({}, [56_798, [203, 1]], [112_729, [184, 296]]));
	});

	it('a 429 whose epoch reset comes seconds before its Retry-After in seconds holds until its Retry-After: a service clock 5 s behind, headers only on 429, refuses a read once', () => {
		invariants(twoReads({ headers: 'on-429' }, [57_798, [203, 1]], [112_729, [184, 296]]));
	});

	it('a 429 whose Retry-After date comes seconds before its reset in seconds holds until its reset: a service clock 5 s behind, without Date, refuses a read once', () => {
		invariants(twoReads({ windows: 'clock', phaseMs: 14, headers: 'on-429', reset: 'delta-seconds', retryAfter: 'date' }, [119_783, [231, 1]], [165_173, [231, 107]]));
	});

	it("a call answered less than a second before a window end read against a whole-second Date counts a window: a credential that cannot read the resets, headers on every answer, draws no 429", () => {
		// Found by the same run: the end of a service 30 s behind, read against its Date, came 0.8 s late; a call counted
		// in the next window but answered before that end was counted only until it, and one call too many went.
		const credential = { baseUrl: 'https://api.example.com', processes: 1 };
		const write = { process: 0, kind: 'write' as const, drops: 0 };
		invariants({
			service: { windowMs: 2000, limit: { read: 2, write: 3 }, windows: 'clock', phaseMs: 28_968, headers: 'always', reset: 'epoch-ms', retryAfter: 'none', clockSkewMs: -30_000, sendsDate: true },
			credentials: [
				{ ...credential, key: 'k1', limit: { read: 1, write: 1 }, windowMs: 2000, resetUnit: 'auto' },
				{ ...credential, key: 'k0', limit: { read: 1, write: 1 }, windowMs: 2000, resetUnit: 'auto' },
				{ ...credential, key: 'k1', limit: { read: 1, write: 3 }, windowMs: 2000, resetUnit: 'secondsFromNow' },
			],
			processes: 1,
			calls: [
				{ ...write, at: 494, credential: 0, tripMs: [166, 188], tool: true, maxWaitMs: 30_000, stopAt: 590 },
				{ ...write, at: 726, credential: 2, tripMs: [242, 148], tool: false, maxWaitMs: 0 },
				{ ...write, at: 726, credential: 0, tripMs: [1, 1], tool: false, maxWaitMs: 0 },
				{ ...write, at: 2142, credential: 2, tripMs: [242, 148], tool: false, maxWaitMs: 0 },
				{ ...write, at: 2531, credential: 2, tripMs: [242, 148], tool: false, maxWaitMs: 1000, stopAt: 8252 },
			],
			others: [],
			changes: [],
		});
	});

	/** Two credentials of one key, one that cannot read the service's whole-second resets, against a Date 5 s behind. */
	const credential = { key: 'k1', baseUrl: 'https://api.example.com', limit: { read: 2, write: 1 }, windowMs: 60_000, processes: 1 };
	const read = { process: 0, kind: 'read' as const, tripMs: [1, 1] as [number, number], tool: false, maxWaitMs: 0, drops: 0 };
	const wholeSecondResets: Pick<Schedule, 'service' | 'credentials' | 'processes'> = {
		service: { windowMs: 60_000, limit: { read: 2, write: 1 }, windows: 'clock', phaseMs: 4176, headers: 'always', reset: 'epoch-seconds', retryAfter: 'none', clockSkewMs: -5000, sendsDate: true },
		credentials: [
			{ ...credential, resetUnit: 'auto' },
			{ ...credential, resetUnit: 'secondsFromNow' },
		],
		processes: 1,
	};

	it('a call answered less than two seconds before a window end read against a whole-second Date counts a window: a reset rounded up and a Date rounded down, headers on every answer, draw no 429', () => {
		// Found by `npm run faults -- --only rate --runs 100000 --seed 777`: the end, read 1 s late, let a call of a
		// credential that cannot read the resets count only until it, though the service counted it in the next window.
		invariants({
			...wholeSecondResets,
			calls: [
				{ ...read, at: 4175, credential: 0 },
				{ ...read, at: 64_140, credential: 1, tripMs: [36, 1] },
				{ ...read, at: 73_021, credential: 0 },
				{ ...read, at: 73_022, credential: 0 },
			],
			others: [],
			changes: [],
		});
	});

	it("Remaining 0 without a reset spends the window a window after its answer, not until an earlier answer's end: a credential that cannot read the resets draws no 429", () => {
		// Found by `npm run faults -- --only rate --runs 100000 --seed 777`: three answers of one credential without a reset
		// were taken for one window, which the first one's answer ended, though the last two were of the next.
		invariants({
			...wholeSecondResets,
			calls: [
				{ ...read, at: 43_439, credential: 1 },
				{ ...read, at: 64_140, credential: 1, tripMs: [36, 1] },
				{ ...read, at: 73_022, credential: 1, tripMs: [118, 300], tool: true, stopAt: 82_730 },
				{ ...read, at: 73_022, credential: 0 },
			],
			others: [],
			changes: [],
		});
	});

	it('Remaining 0 without a reset stays spent when a later answer without one, of a longer credential window, seems to open another: no 429', () => {
		// Found by `npm run faults -- --only rate --runs 100000 --seed 777`: the older answer of a 2 s credential came after
		// a 1 s credential's Remaining 0 and made a window ending later, which started afresh, not spent.
		const read = { process: 0, kind: 'read' as const, drops: 0 };
		invariants({
			service: { windowMs: 1000, limit: { read: 2, write: 2 }, windows: 'first-call', phaseMs: 0, headers: 'always', reset: 'delta-seconds', retryAfter: 'none', clockSkewMs: 400, sendsDate: false },
			credentials: [
				{ key: 'k0', baseUrl: 'https://api.example.com', limit: { read: 2, write: 1 }, windowMs: 1000, processes: 1, resetUnit: 'epochMs' },
				{ key: 'k0', baseUrl: 'https://api.example.com', limit: { read: 1, write: 1 }, windowMs: 2000, processes: 1, resetUnit: 'epochSeconds' },
			],
			processes: 1,
			calls: [
				{ ...read, at: 958, credential: 1, tripMs: [197, 264], tool: false, maxWaitMs: 1000, stopAt: 1985 },
				{ ...read, at: 958, credential: 0, tripMs: [197, 1], tool: false, maxWaitMs: 0 },
				{ ...read, at: 1851, credential: 0, tripMs: [54, 68], tool: true, maxWaitMs: 0, stopAt: 4434 },
			],
			others: [],
			changes: [],
		});
	});

	it('Remaining 0 without a reset spends the window a credential with a shorter window sees: two credentials of one key, 2 s and 60 s, draw no 429', () => {
		// Found by the same run: the answer's window (2 s after it) ended before the one a 60 s credential's call had
		// opened, so it was taken for an answer of an earlier window, and its Remaining 0 for nothing.
		const credential = { key: 'k1', baseUrl: 'https://api.example.com', processes: 1, resetUnit: 'auto' as const };
		const read = { process: 0, kind: 'read' as const, drops: 0 };
		invariants({
			service: { windowMs: 2000, limit: { read: 2, write: 5 }, windows: 'first-call', phaseMs: 0, headers: 'always', reset: 'none', retryAfter: 'words', clockSkewMs: -30_000, sendsDate: false },
			credentials: [
				{ ...credential, limit: { read: 1, write: 1 }, windowMs: 2000 },
				{ ...credential, limit: { read: 2, write: 1 }, windowMs: 60_000 },
			],
			processes: 1,
			calls: [
				{ ...read, at: 183, credential: 1, tripMs: [214, 1], tool: false, maxWaitMs: 0 },
				{ ...read, at: 2025, credential: 0, tripMs: [191, 26], tool: false, maxWaitMs: 5000 },
				{ ...read, at: 2058, credential: 1, tripMs: [154, 22], tool: true, maxWaitMs: 300_000, stopAt: 11_551 },
			],
			others: [],
			changes: [],
		});
	});
});

describe('the rate policy over random schedules', () => {
	it('keeps every invariant: holds capped, deadlines kept, order kept, budgets kept and shared, no 429 a budget could avoid', () => {
		const { numRuns, seed, path } = runSize({ numRuns: 10_000, seed: 56 });
		fc.assert(fc.property(schedules, invariants), { numRuns, seed, path });
	});

	it('processes sharing a key without the processes setting converge: past the first two windows at most two 429s per process in a window, fewer 429s than windows, no call failed', () => {
		// A load is about a hundred schedules' work: one runs for every hundred of the run.
		const { numRuns, seed, path } = runSize({ numRuns: 10_000, seed: 57 });
		fc.assert(
			fc.property(sharedKeyLoads, (schedule) => {
				const { history } = simulate(schedule);
				const refusals = new Map<number, number>();
				for (const counted of of(history, 'counted')) refusals.set(counted.window, (refusals.get(counted.window) ?? 0) + (counted.status === 429 ? 1 : 0));
				const later = [...refusals.keys()].sort((a, b) => a - b).slice(2);
				for (const window of later) check((refusals.get(window) ?? 0) <= 2 * schedule.processes, `at most two 429s per process in the window from ${window} ms`);
				const total = later.reduce((sum, window) => sum + (refusals.get(window) ?? 0), 0);
				check(total < refusals.size, `fewer 429s than windows past the first two (${total} in ${refusals.size} windows)`);
				check(of(history, 'fail').length === 0, 'no call fails', of(history, 'fail')[0]);
			}),
			{ numRuns: Math.ceil(numRuns / 100), seed, path },
		);
	});
});
