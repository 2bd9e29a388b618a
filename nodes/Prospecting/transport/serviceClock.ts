import { headerValue } from '../helpers/headers';

/**
 * The service's clock, as this process learns it from the Date header of every answer of an account: how far it is
 * from this machine's, so that a lead's createdAt (the service's clock) can be set against when its create was sent
 * (this machine's clock). Each reading is (Date header) − (when the answer arrived): the header is truncated to the
 * second and the answer travels after it is stamped, so every reading is at or behind the true offset. The largest of
 * them is the closest, and still never ahead of it.
 */

/** A lead created right after the send may carry a time up to this much before it: Date counts whole seconds. */
export const CLOCK_MARGIN_MS = 1000;
/** With no reading, how far behind the service's clock may be: an identical lead stamped that close before the send cannot be told from the one sent. */
export const UNMEASURED_CLOCK_ALLOWANCE_MS = 120_000;
/** A reading speaks for sends up to this long after it (a service's clock may be set since). */
const READING_LASTS_MS = 10 * 60_000;
/** Readings kept per account, the newest. */
const READINGS_KEPT = 16;
/** Accounts whose clock this process keeps; the one read longest ago goes first. */
const ACCOUNTS_KEPT = 1000;

const readings = new Map<string, Array<{ at: number; offsetMs: number }>>();

/** Notes the Date header of an answer of this account, when it has a valid one. */
export function noteServiceDate(account: string, headers: Record<string, unknown> | undefined, arrivedAt: number): void {
	const value = headerValue(headers, 'date');
	const stamped = typeof value === 'string' ? Date.parse(value) : NaN;
	if (!Number.isFinite(stamped)) return;
	const kept = [...(readings.get(account) ?? []), { at: arrivedAt, offsetMs: stamped - arrivedAt }].slice(-READINGS_KEPT);
	readings.delete(account);
	readings.set(account, kept);
	if (readings.size > ACCOUNTS_KEPT) readings.delete(readings.keys().next().value as string);
}

/**
 * The earliest createdAt (the service's clock, ms) a lead sent at `sentAt` (this machine's clock) may carry, from the
 * readings of this account since a little before the send; `measured` is false when there was none to go by.
 */
export function earliestCreatedAt(account: string, sentAt: number): { at: number; measured: boolean } {
	const offsets = (readings.get(account) ?? []).filter((reading) => reading.at >= sentAt - READING_LASTS_MS).map((reading) => reading.offsetMs);
	if (offsets.length === 0) return { at: sentAt - UNMEASURED_CLOCK_ALLOWANCE_MS, measured: false };
	return { at: sentAt + Math.max(...offsets) - CLOCK_MARGIN_MS, measured: true };
}

/** Forgets every account's clock (tests start from a clean process state). */
export const forgetServiceClocks = (): void => readings.clear();
