/**
 * [9] Max Rate Limit Wait, the one bound every wait and retry of a call reads. As a tool, the tool call's deadline
 * bounds every wait of every call it makes; in a workflow only 429 holds, from the first one the call meets, so a call
 * waiting for its turn is paced, never failed.
 */
export class Deadline {
	private heldSince?: number;

	constructor(readonly maxWaitMs: number, private readonly toolDeadlineAt?: number) {}

	/** The latest a wait may end, for a call that a 429 holds (its own or an earlier call's) or not. */
	latest(held: boolean, now: number): number {
		if (held) this.heldSince ??= now;
		return this.toolDeadlineAt ?? (held ? (this.heldSince as number) + this.maxWaitMs : Infinity);
	}

	/** How long the bounded waits have lasted. */
	waitedMs = (now: number): number => now - (this.toolDeadlineAt !== undefined ? this.toolDeadlineAt - this.maxWaitMs : (this.heldSince ?? now));
}
