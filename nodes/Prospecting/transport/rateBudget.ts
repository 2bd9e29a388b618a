import { budgetKey } from '../helpers/account';
import type { Deadline } from './deadline';
import { leaveIfCancelled, pause } from './pause';
import { IN_STEP_MS, WINDOWS_REMEMBERED, countedLimit, countedUntil, holdAfterRefusal, readyAt, windowAfter, type BudgetFigures, type HoldReason, type RateAnswer, type RateSettings } from './rateRules';

export type CallKind = 'read' | 'write';

/** The service's documented limits, assumed where a credential leaves them unset. */
export const DEFAULT_WINDOW_SECONDS = 60;
export const DEFAULT_LIMITS: Record<CallKind, number> = { read: 200, write: 100 };
/** [12] A budget unused this many of its windows is dropped: its figures are of windows long ended. */
export const IDLE_WINDOWS = 3;
const LONGEST_TIMER_MS = 2 ** 31 - 1; // Node's longest timer: a longer wait looks again after it

/** [9] The call could go only later than its deadline allows (`neededMs` undefined: after the calls ahead of it). */
export class RateWaitTooLong extends Error {
	constructor(readonly neededMs: number | undefined, readonly heldBy?: HoldReason) {
		super(`The rate limit allows this call ${neededMs === undefined ? 'later' : `in ${Math.round(neededMs)} ms`}`);
	}
}

/** A call let go: when it went, and its place in the order calls came (kept when it goes again). */
export interface Reservation { at: number; place: number }
/** What a waiting call does now: go, wait until a time (or a change), or give up. */
export type Step = { go: true } | { until: number } | { tooLate: RateWaitTooLong };

/** One budget (reads or writes) of one key, shared by every execution of this process. */
export class RateBudget {
	/** [10] The places of the calls waiting, in the order they first asked; the head goes when the rules say. */
	private readonly waiting: number[] = [];
	/** [12] The places of the calls not ended: waiting, on their way, or between a read's tries. */
	private readonly unended = new Set<number>();
	private readonly wakes = new Map<number, () => void>();
	private places = 0;
	/** [12] The window of the latest call, by which the budget is found idle. */
	private windowMs = DEFAULT_WINDOW_SECONDS * 1000;
	private readonly state: BudgetFigures = {
		...{ inFlight: 0, countedUntil: [], windowEnd: 0, inStepUntil: 0, announcedLimit: Infinity, earlierWindows: [] },
		...{ hold: { until: 0, ms: 0, by: 'doubling', again: false }, window: { end: 0, spentUntil: 0, own: 0, others: 0 } },
	};

	figures = (): Readonly<BudgetFigures> => this.state;

	/** [10] A call asks for its turn; one that goes again (after a 429, before a read's retry) keeps its first place. */
	enter(place = this.places++): number {
		this.unended.add(place);
		if (!this.waiting.includes(place)) this.waiting.splice(this.waiting.filter((other) => other < place).length, 0, place);
		return place;
	}

	/** [9] [10] What the call at `place` does now: the head goes when the rules say, unless that is past its deadline. */
	next(place: number, settings: RateSettings, deadline: Deadline, now: number): Step {
		this.windowMs = settings.windowMs > 0 ? settings.windowMs : DEFAULT_WINDOW_SECONDS * 1000;
		const head = this.waiting[0] === place;
		const held = now < this.state.hold.until;
		const latest = deadline.latest(held, now);
		const ready = head ? readyAt(this.state, settings, now, latest) : Infinity;
		if (ready <= now) return { go: true };
		// The soonest it could go: its turn as the head, else not before the hold ends (Infinity: after the calls ahead).
		const soonest = head ? ready : held ? this.state.hold.until : Infinity;
		if (now < latest && !(soonest > latest && soonest < Infinity)) return { until: Math.min(ready, latest) };
		return { tooLate: new RateWaitTooLong(soonest < Infinity ? soonest - now : undefined, held ? this.state.hold.by : undefined) };
	}

	/** The call at `place` goes: it leaves the queue and is on its way. */
	start(place: number, now: number): Reservation {
		this.leave(place);
		this.state.inFlight += 1;
		return { at: now, place };
	}

	/** The call at `place` no longer waits (it went, gave up or was stopped): the next one looks again. */
	leave(place: number): void {
		this.waiting.splice(this.waiting.includes(place) ? this.waiting.indexOf(place) : this.waiting.length, 1);
		this.wakes.delete(place);
		this.wakes.get(this.waiting[0])?.();
	}

	/** [12] The call at `place` ended (answered, failed or stopped): it asks no more. */
	end(place: number): void {
		this.unended.delete(place);
		this.leave(place);
	}

	/** [10] Waits for the call's turn and the rules, leaving at once when its execution is cancelled. */
	async acquire(settings: RateSettings, deadline: Deadline, signal?: AbortSignal, place = this.enter()): Promise<Reservation> {
		this.enter(place);
		const cancelled = () => this.wakes.get(place)?.();
		signal?.addEventListener('abort', cancelled);
		try {
			for (;;) {
				await leaveIfCancelled(signal);
				const step = this.next(place, settings, deadline, Date.now());
				if ('go' in step) return this.start(place, Date.now());
				if ('tooLate' in step) throw step.tooLate;
				// Until its time or a wake (a change, a cancel): n8n 2.41 has no sleep to cut short, so none for an answer.
				const woken = new Promise<void>((resolve) => this.wakes.set(place, resolve));
				if (!signal?.aborted) await Promise.race([woken, ...(step.until < Infinity ? [pause(Math.min(step.until - Date.now(), LONGEST_TIMER_MS))] : [])]);
			}
		} finally {
			signal?.removeEventListener('abort', cancelled);
			this.leave(place);
		}
	}

	/** Records the answer of `reservation`'s call, or of none; [11] a call without an answer counts (it may have). */
	settle(reservation: Reservation | undefined, answer: RateAnswer | undefined, settings: RateSettings, now = Date.now()): void {
		const f = this.state;
		if (reservation) {
			f.inFlight = Math.max(0, f.inFlight - 1);
			// [12] Bounded: no pace is more than the limit, and one call more goes only to learn the window.
			const until = countedUntil(answer, settings, f.windowEnd, now);
			f.countedUntil.splice(f.countedUntil.filter((other) => other <= until).length, 0, until);
			if (f.countedUntil.length > settings.limit + 1) f.countedUntil.shift();
		}
		this.wakes.get(this.waiting[0])?.();
		if (!answer) return;
		if (answer.limit !== undefined && answer.limit > 0) f.announcedLimit = answer.limit;
		// [4] A call sent as a window began keeps the budget in step: its window ends at most a window after its answer.
		const sinceEnd = reservation ? reservation.at - Math.max(f.windowEnd, f.inStepUntil) : -1;
		if (f.windowEnd > 0 && sinceEnd >= 0 && sinceEnd <= IN_STEP_MS) f.inStepUntil = now + settings.windowMs;
		// [3] The window ends at its reset, or sooner at a 429's Retry-After; calls answered before were counted by then.
		const endAt = Math.min(answer.resetAt ?? Infinity, answer.status === 429 ? now + (answer.retryAfterMs ?? Infinity) : Infinity);
		if (endAt > now && endAt > f.windowEnd && endAt < Infinity) f.countedUntil = f.countedUntil.map((until) => Math.min(until, endAt));
		if (endAt > f.windowEnd && endAt < Infinity) f.windowEnd = endAt;
		if (reservation && answer.remaining !== undefined) {
			const limit = answer.limit ?? countedLimit(f.announcedLimit, settings);
			const window = windowAfter(f.window, { ...answer, remaining: answer.remaining }, f.inFlight, limit, settings, now);
			if (window.end !== f.window.end) f.earlierWindows = [f.window, ...f.earlierWindows].slice(0, WINDOWS_REMEMBERED);
			f.window = window;
		}
		if (answer.status !== 429) return void Object.assign(f.hold, { ms: 0, again: false });
		// [7] A refusal of a call sent after the key's last hold: the key refuses again. One sent before extends the hold.
		const again = f.hold.ms > 0 && (reservation === undefined || reservation.at >= f.hold.until - f.hold.ms);
		const hold = holdAfterRefusal(answer, settings, now, again ? f.hold.ms : 0);
		if (now + hold.ms > f.hold.until) Object.assign(f.hold, { until: now + hold.ms, by: hold.by });
		if (again || f.hold.ms === 0) Object.assign(f.hold, { ms: hold.ms, again });
	}

	/** [12] Every call of it ended, and no hold, window or answer it knows has mattered for `IDLE_WINDOWS` of its windows. */
	isIdle(now: number): boolean {
		const { countedUntil, inFlight, hold, window } = this.state;
		const mattersUntil = Math.max(hold.until, window.end, window.spentUntil, countedUntil[countedUntil.length - 1] ?? 0);
		return this.unended.size === 0 && inFlight === 0 && now - mattersUntil >= this.windowMs * (IDLE_WINDOWS - 1);
	}
}

/** [12] The budgets of one process, one per key and kind; idle ones are dropped. */
export class RateBudgets extends Map<string, RateBudget> {
	budget(apiKey: string, kind: CallKind, now = Date.now()): RateBudget {
		for (const [key, old] of this) if (old.isIdle(now)) this.delete(key);
		const key = `${budgetKey(apiKey)}|${kind}`;
		return this.get(key) ?? this.set(key, new RateBudget()).get(key) as RateBudget;
	}
}

/** This process's budgets, shared by every execution; tests forget them to start as a new process. */
const budgets = new RateBudgets();
export const getBudget = (apiKey: string, kind: CallKind): RateBudget => budgets.budget(apiKey, kind);
export const resetBudgets = (): void => budgets.clear();

/** A credential's number setting; saved credentials from before it existed, or left empty, get the documented value. */
const setting = (value: unknown, fallback: number, min: number): number => (value !== null && value !== '' && Number.isFinite(Number(value)) && Number(value) >= min ? Number(value) : fallback);

/** [12] What the credential says for one kind of call, read on every call. */
export function rateSettings(credentials: Record<string, unknown>, kind: CallKind): RateSettings {
	return {
		limit: Math.floor(setting(kind === 'read' ? credentials.readsPerWindow : credentials.writesPerWindow, DEFAULT_LIMITS[kind], 1)),
		windowMs: setting(credentials.rateLimitWindowSeconds, DEFAULT_WINDOW_SECONDS, 0) * 1000,
		processes: Math.floor(setting(credentials.clientsSharingKey, 1, 1)),
		resetUnit: (['epochSeconds', 'epochMs', 'secondsFromNow'] as const).find((unit) => unit === credentials.rateLimitResetUnit) ?? 'auto',
	};
}

export const callKind = (method: string): CallKind => (['GET', 'HEAD'].includes(method.toUpperCase()) ? 'read' : 'write');
