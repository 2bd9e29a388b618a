/**
 * A schedule of calls run against the rate policy on a simulated clock, with no waiting: several n8n processes, each
 * with its own budgets (transport/rateBudget.ts, the code the nodes run), sending through the same steps as
 * transport/request.ts (a turn from the budget, the call, its answer settled, a 429 or a dropped read going again from
 * its place) to a service that counts calls per key and kind in fixed windows. Everything that happens is kept as
 * a history, which the properties judge and a failure prints as a story.
 */
import { Deadline } from '../../nodes/Prospecting/transport/deadline';
import { RateBudgets, type CallKind, type RateBudget, type Reservation } from '../../nodes/Prospecting/transport/rateBudget';
import { readRateAnswer, type RateSettings } from '../../nodes/Prospecting/transport/rateRules';

type ResetUnit = RateSettings['resetUnit'];
import { MAX_READ_RETRIES, READ_RETRY_BASE_MS } from '../../nodes/Prospecting/transport/request';

/**
 * The simulated clock starts on a day of these years (a schedule's and its history's times count from it): the small
 * numbers of a reset must not read as epoch times, as they could a few seconds after 1970.
 */
const DAY_ONE = Date.parse('2026-11-28T00:00:00.000Z');

/** How the service counts and what it says. */
export interface Service {
	windowMs: number;
	limit: Record<CallKind, number>;
	/** Windows open at a key's first call after the last one closed, or are aligned to the clock (shifted by `phaseMs`). */
	windows: 'first-call' | 'clock';
	phaseMs: number;
	/** X-RateLimit-* on every answer, or on 429 answers only (as the spec shows them). */
	headers: 'always' | 'on-429';
	reset: 'epoch-seconds' | 'epoch-ms' | 'delta-seconds' | 'none';
	/** Retry-After in seconds, as an HTTP date, in milliseconds sent as seconds, not at all, or as words. */
	retryAfter: 'seconds' | 'date' | 'milliseconds' | 'none' | 'words';
	/** How far the service's clock is ahead of this one (negative: behind), and whether it sends its Date. */
	clockSkewMs: number;
	sendsDate: boolean;
}

/** A credential as the user left it: its key, a base URL, and its rate settings (what rateSettings reads). */
export interface Credential {
	key: string;
	baseUrl: string;
	limit: Record<CallKind, number>;
	windowMs: number;
	processes: number;
	resetUnit: ResetUnit;
}

/** One call a node makes: when, from which n8n process, with which credential, and what happens to it on the way. */
export interface Call {
	at: number;
	process: number;
	credential: number;
	kind: CallKind;
	/** Milliseconds to the service and back. */
	tripMs: [number, number];
	/** A tool call's Max Rate Limit Wait bounds every wait from its start; a workflow call's its holds. */
	tool: boolean;
	maxWaitMs: number;
	/** Its first attempts whose connection drops before the service counts them. */
	drops: number;
	/** When the user stops the execution, if they do. */
	stopAt?: number;
}

export interface Schedule {
	service: Service;
	credentials: Credential[];
	processes: number;
	calls: Call[];
	/** Calls of another client of key 0, not paced by any budget. */
	others: Array<{ at: number; kind: CallKind }>;
	/** The user changes a credential's settings at a time. */
	changes: Array<{ at: number; credential: number; limit: Record<CallKind, number>; windowMs: number; processes: number; resetUnit: ResetUnit }>;
}

export type Happening =
	| { t: number; what: 'ask'; call: number; apart: number }
	| { t: number; what: 'send'; call: number; attempt: number; ahead: number }
	| { t: number; what: 'counted'; call: number; status: number; window: number; headers: Record<string, string> }
	| { t: number; what: 'answer'; call: number; status: number; holdMs: number; heldBy: string }
	| { t: number; what: 'dropped'; call: number }
	| { t: number; what: 'fail'; call: number; reason: 'rate' | 'network'; held: boolean; neededMs?: number }
	| { t: number; what: 'stopped'; call: number }
	| { t: number; what: 'done'; call: number }
	| { t: number; what: 'other'; kind: CallKind; status: number }
	| { t: number; what: 'swept'; process: number; key: string; kind: CallKind; holding: boolean };

/** A fixed-window service: per key and kind, a window that opens at a first call or on the clock. */
class FixedWindowService {
	private readonly windows = new Map<string, { start: number; count: number }>();

	constructor(private readonly service: Service) {}

	count(key: string, kind: CallKind, t: number): { status: number; window: number; headers: Record<string, string> } {
		const { windowMs, limit: limits, phaseMs } = this.service;
		const limit = limits[kind];
		let window = this.windows.get(`${key}|${kind}`);
		if (!window || t >= window.start + windowMs) {
			const start = this.service.windows === 'clock' ? Math.floor((t - DAY_ONE - phaseMs) / windowMs) * windowMs + phaseMs + DAY_ONE : t;
			window = { start, count: 0 };
			this.windows.set(`${key}|${kind}`, window);
		}
		const allowed = window.count < limit;
		if (allowed) window.count += 1;
		return { status: allowed ? 200 : 429, window: window.start - DAY_ONE, headers: this.headers(window.start + windowMs, limit - window.count, limit, allowed, t) };
	}

	private headers(end: number, remaining: number, limit: number, allowed: boolean, t: number): Record<string, string> {
		const { clockSkewMs: skew, reset, retryAfter } = this.service;
		const headers: Record<string, string> = {};
		if (this.service.sendsDate) headers.date = new Date(t + skew).toUTCString();
		if (!allowed || this.service.headers === 'always') {
			headers['x-ratelimit-limit'] = String(limit);
			headers['x-ratelimit-remaining'] = String(remaining);
			if (reset === 'epoch-seconds') headers['x-ratelimit-reset'] = String(Math.ceil((end + skew) / 1000));
			if (reset === 'epoch-ms') headers['x-ratelimit-reset'] = String(end + skew);
			if (reset === 'delta-seconds') headers['x-ratelimit-reset'] = String(Math.ceil((end - t) / 1000));
		}
		if (allowed) return headers;
		const seconds = Math.max(1, Math.ceil((end - t) / 1000));
		if (retryAfter === 'seconds') headers['retry-after'] = String(seconds);
		if (retryAfter === 'date') headers['retry-after'] = new Date(Math.ceil((end + skew) / 1000) * 1000).toUTCString();
		if (retryAfter === 'milliseconds') headers['retry-after'] = String(seconds * 1000);
		if (retryAfter === 'words') headers['retry-after'] = 'soon';
		return headers;
	}
}

interface Running {
	index: number;
	call: Call;
	settings: RateSettings;
	budget: RateBudget;
	deadline: Deadline;
	place: number;
	wakeAt?: number;
	attempts: number;
	refusals: number;
	readFailures: number;
	/** The dropped connection a read retries: its answer if no retry fits. */
	failing: boolean;
}

interface Event { t: number; seq: number; run: (t: number) => void }

/** Events by time, then in the order they were set (a binary heap). */
class Events {
	private readonly heap: Event[] = [];
	private readonly before = (a: Event, b: Event) => a.t < b.t || (a.t === b.t && a.seq < b.seq);

	get size(): number {
		return this.heap.length;
	}

	firstTime = (): number => this.heap[0].t;

	push(event: Event): void {
		const heap = this.heap;
		heap.push(event);
		for (let i = heap.length - 1, parent = (i - 1) >> 1; i > 0 && this.before(heap[i], heap[parent]); i = parent, parent = (i - 1) >> 1) [heap[i], heap[parent]] = [heap[parent], heap[i]];
	}

	pop(): Event {
		const heap = this.heap;
		const first = heap[0];
		const last = heap.pop() as Event;
		if (heap.length === 0) return first;
		heap[0] = last;
		for (let i = 0; ; ) {
			const [left, right] = [2 * i + 1, 2 * i + 2];
			let least = i;
			if (left < heap.length && this.before(heap[left], heap[least])) least = left;
			if (right < heap.length && this.before(heap[right], heap[least])) least = right;
			if (least === i) return first;
			[heap[i], heap[least]] = [heap[least], heap[i]];
			i = least;
		}
	}
}

/** The settings `rateSettings` reads from a credential for one kind of call. */
export const settingsOf = (credential: Omit<Credential, 'key' | 'baseUrl'>, kind: CallKind): RateSettings => ({
	limit: credential.limit[kind],
	windowMs: credential.windowMs,
	processes: credential.processes,
	resetUnit: credential.resetUnit,
});

/** Runs a schedule to its end; returns what happened, in order, and each process's budgets as they ended. */
export function simulate(schedule: Schedule): { history: Happening[]; registries: RateBudgets[] } {
	const credentials = schedule.credentials.map((credential) => ({ ...credential }));
	const service = new FixedWindowService(schedule.service);
	const registries = Array.from({ length: schedule.processes }, () => new RateBudgets());
	const happened: Happening[] = [];
	const history = { push: (h: Happening) => happened.push({ ...h, t: h.t - DAY_ONE } as Happening) };
	const runs = new Map<number, Running>();
	const budgetsSeen = new Map<string, RateBudget>();
	let sequence = 0;
	const queue = new Events();
	const at = (t: number, run: (t: number) => void) => queue.push({ t, seq: sequence++, run });
	/** The calls waiting for their turn, and those not ended. */
	const [waiting, active] = [new Set<Running>(), new Set<Running>()];

	/** A budget of a process, noting when one that still held a 429 or had calls was dropped for a new one. */
	const budgetFor = (process: number, key: string, kind: CallKind, t: number): RateBudget => {
		const budget = registries[process].budget(key, kind, t);
		const id = `${process}|${key}|${kind}`;
		const before = budgetsSeen.get(id);
		if (before && before !== budget) {
			const { hold, inFlight, countedUntil, window } = before.figures();
			const counting = countedUntil.some((until) => until > t) || window.spentUntil > t;
			const holding = hold.until > t || inFlight > 0 || counting || [...active].some((other) => other.budget === before);
			history.push({ t, what: 'swept', process, key, kind, holding });
		}
		budgetsSeen.set(id, budget);
		return budget;
	};

	/** The call waits for its turn again, from its first place (after a 429, or before a read's retry). */
	const enter = (run: Running) => {
		run.budget.enter(run.place);
		waiting.add(run);
		run.wakeAt = undefined;
	};

	const finish = (run: Running, happening: Happening) => {
		history.push(happening);
		waiting.delete(run);
		active.delete(run);
		run.budget.end(run.place);
	};

	const send = (run: Running, reservation: Reservation, t: number) => {
		run.attempts += 1;
		const ahead = [...waiting].filter((other) => other.budget === run.budget && other.place < run.place).length;
		history.push({ t, what: 'send', call: run.index, attempt: run.attempts, ahead });
		const credential = credentials[run.call.credential];
		const [to, back] = run.call.tripMs;
		if (run.attempts <= run.call.drops) {
			at(t + to + back, (now) => {
				history.push({ t: now, what: 'dropped', call: run.index });
				run.budget.settle(reservation, undefined, run.settings, now);
				const wait = READ_RETRY_BASE_MS * 2 ** run.readFailures;
				const retry = run.call.kind === 'read' && run.readFailures < MAX_READ_RETRIES && now + wait <= run.deadline.latest(false, now);
				if (!retry) return finish(run, { t: now, what: 'fail', call: run.index, reason: 'network', held: false });
				run.readFailures += 1;
				run.failing = true;
				at(now + wait, (later) => (stopped(run, later) ? finish(run, { t: later, what: 'stopped', call: run.index }) : enter(run)));
			});
			return;
		}
		at(t + to, (counting) => {
			const counted = service.count(credential.key, run.call.kind, counting);
			history.push({ t: counting, what: 'counted', call: run.index, ...counted });
			at(counting + back, (now) => {
				run.budget.settle(reservation, readRateAnswer(counted.headers, counted.status, now, run.settings), run.settings, now);
				const { hold } = run.budget.figures();
				history.push({ t: now, what: 'answer', call: run.index, status: counted.status, holdMs: Math.max(0, hold.until - now), heldBy: hold.by });
				if (counted.status !== 429) return finish(run, { t: now, what: 'done', call: run.index });
				run.refusals += 1;
				run.failing = false;
				if (stopped(run, now)) return finish(run, { t: now, what: 'stopped', call: run.index });
				enter(run);
			});
		});
	};

	const stopped = (run: Running, t: number) => run.call.stopAt !== undefined && DAY_ONE + run.call.stopAt <= t;

	/** Every waiting call looks again, heads first, until none goes: as the budgets' waiters do when woken. */
	const pump = (t: number) => {
		for (let moved = true; moved; ) {
			moved = false;
			for (const run of [...waiting].sort((a, b) => a.place - b.place)) {
				const step = run.budget.next(run.place, run.settings, run.deadline, t);
				if ('go' in step) {
					waiting.delete(run);
					send(run, run.budget.start(run.place, t), t);
					moved = true;
				} else if ('tooLate' in step) {
					const { neededMs, heldBy } = step.tooLate;
					finish(run, { t, what: 'fail', call: run.index, reason: run.failing ? 'network' : 'rate', held: heldBy !== undefined, neededMs });
					moved = true;
				} else if (step.until !== run.wakeAt && step.until < Infinity) {
					// Its sleep ends then: every event's time is a moment the waiting calls look again.
					run.wakeAt = step.until;
					at(step.until, () => undefined);
				}
			}
		}
	};

	schedule.calls.forEach((call, index) => {
		at(DAY_ONE + call.at, (t) => {
			const credential = credentials[call.credential];
			const settings = settingsOf(credential, call.kind);
			const budget = budgetFor(call.process, credential.key, call.kind, t);
			const deadline = new Deadline(call.maxWaitMs, call.tool ? t + call.maxWaitMs : undefined);
			const run: Running = { index, call, settings, budget, deadline, place: budget.enter(), attempts: 0, refusals: 0, readFailures: 0, failing: false };
			const same = (other: Running) => other.call.process === call.process && other.call.kind === call.kind && credentials[other.call.credential].key === credential.key;
			history.push({ t, what: 'ask', call: index, apart: [...active].filter((other) => same(other) && other.budget !== budget).length });
			runs.set(index, run);
			waiting.add(run);
			active.add(run);
		});
		if (call.stopAt !== undefined) {
			at(DAY_ONE + call.stopAt, (t) => {
				const run = runs.get(index);
				if (run && waiting.has(run)) finish(run, { t, what: 'stopped', call: index });
			});
		}
	});
	for (const other of schedule.others) {
		at(DAY_ONE + other.at, (t) => history.push({ t, what: 'other', kind: other.kind, status: service.count(credentials[0].key, other.kind, t).status }));
	}
	for (const change of schedule.changes) {
		const { limit, windowMs, processes, resetUnit } = change;
		at(DAY_ONE + change.at, () => Object.assign(credentials[change.credential], { limit, windowMs, processes, resetUnit }));
	}

	// Every event of a moment, in the order they were set; then the waiting calls look again.
	for (let steps = 0; queue.size > 0; steps++) {
		if (steps > 1_000_000) throw new Error('the simulation did not end');
		const t = queue.firstTime();
		while (queue.size > 0 && queue.firstTime() === t) queue.pop().run(t);
		pump(t);
	}
	return { history: happened, registries };
}
