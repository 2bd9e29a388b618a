import { createHash } from 'node:crypto';

import { RateBudget, type RateSettings } from './ratePolicy';

export type CallKind = 'read' | 'write';

/** The service's documented limits, assumed where a credential leaves them unset. */
export const DEFAULT_WINDOW_SECONDS = 60;
export const DEFAULT_LIMITS: Record<CallKind, number> = { read: 200, write: 100 };
/** A budget unused this many windows is dropped: its figures are of windows long ended. */
const IDLE_WINDOWS = 3;

/** Budgets per (base URL, key hash, kind), shared by every execution of this process; idle ones are dropped. */
const budgets = new Map<string, RateBudget>();

/** The account a key reaches, named without keeping the key. Host case and a default port do not make another. */
export function budgetKey(baseUrl: string, apiKey: string): string {
	let address = baseUrl;
	try {
		const url = new URL(baseUrl);
		address = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
	} catch {
		// Not a URL: the request fails on it before any call, so the text itself names the budget.
	}
	return `${address}|${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;
}

/** A credential's number setting; saved credentials from before it existed, or left empty, get the documented value. */
function setting(value: unknown, fallback: number, min: number): number {
	const number = value === undefined || value === null || value === '' ? NaN : Number(value);
	return Number.isFinite(number) && number >= min ? number : fallback;
}

/** What the credential says of the service's limits for one kind of call. */
export function rateSettings(credentials: Record<string, unknown>, kind: CallKind): RateSettings {
	const perWindow = kind === 'read' ? credentials.readsPerWindow : credentials.writesPerWindow;
	return {
		limit: setting(perWindow, DEFAULT_LIMITS[kind], 1),
		windowMs: setting(credentials.rateLimitWindowSeconds, DEFAULT_WINDOW_SECONDS, 0) * 1000,
		clients: Math.floor(setting(credentials.clientsSharingKey, 1, 1)),
		clockWindows: credentials.rateLimitWindowStart === 'clock',
	};
}

export function getBudget(baseUrl: string, apiKey: string, kind: CallKind, settings: RateSettings): RateBudget {
	const now = Date.now();
	for (const [key, old] of budgets) {
		if (old.isIdle(now, (old.settings.windowMs || DEFAULT_WINDOW_SECONDS * 1000) * IDLE_WINDOWS)) budgets.delete(key);
	}
	const key = `${budgetKey(baseUrl, apiKey)}|${kind}`;
	let budget = budgets.get(key);
	if (!budget) {
		budget = new RateBudget(settings);
		budgets.set(key, budget);
	}
	return budget;
}

/** How many budgets this process keeps (tests). */
export function budgetCount(): number {
	return budgets.size;
}

/** Forgets every budget (tests start each scenario from a clean process state). */
export function resetBudgets(): void {
	budgets.clear();
}

export function callKind(method: string): CallKind {
	const upper = method.toUpperCase();
	return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
}
