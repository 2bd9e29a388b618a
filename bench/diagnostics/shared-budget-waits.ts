/**
 * `npx ts-node --transpile-only bench/diagnostics/shared-budget-waits.ts` (F=epoch-seconds for whole-second resets;
 * FIX=1 to try the proposed count, lowest announced less the calls in flight, from outside the node)
 *
 * The shared-key figure (two executions walking 60,000 leads at once on one key, 5 s window) with the node's
 * RateBudget observed from outside: its state whenever a call decides to wait for the window, and every answer
 * that arrives during that wait. Prints the reads per window (from the sandbox's request log) and those waits.
 * A wait decided with `lowest - inFlight > 0` whose answers raise `remaining` above 0 is a slot left unused.
 */
import { RateBudget } from '../../nodes/Prospecting/transport/rateLimiter';
import { FULL } from '../lib/config';
import { forgetRateBudgets, nodeWalk } from '../lib/node-workflows';
import { SandboxProcess } from '../lib/sandbox-client';
import { runSharedKey } from '../scenarios/shared-key';

interface Observed {
	remaining?: number;
	inFlight: number;
	lowestAnnounced?: number;
	waitMs: number;
	answersDuringWait: Array<{ announced: unknown; remaining?: number; inFlight: number }>;
}

const waits: Observed[] = [];
const waiting = new Map<RateBudget, Observed>();

const acquire = RateBudget.prototype.acquire;
RateBudget.prototype.acquire = async function (this: RateBudget, onWait?: (ms: number) => void, signal?: AbortSignal) {
	const waited = await acquire.call(
		this,
		(ms: number) => {
			const observed: Observed = {
				remaining: this.state.remaining,
				inFlight: this.state.inFlight,
				lowestAnnounced: this.state.lowestAnnounced,
				waitMs: Math.round(ms),
				answersDuringWait: [],
			};
			waits.push(observed);
			waiting.set(this, observed);
			onWait?.(ms);
		},
		signal,
	);
	waiting.delete(this);
	return waited;
};

const release = RateBudget.prototype.release;
RateBudget.prototype.release = function (this: RateBudget, headers: Record<string, unknown> | undefined, status: number | undefined) {
	release.call(this, headers, status);
	// FIX=1 tries the proposed change from outside: the count is the lowest announced one less the calls in flight,
	// in place of the running minimum.
	if (process.env.FIX === '1' && status !== 429 && this.state.lowestAnnounced !== undefined) {
		this.state.remaining = this.state.lowestAnnounced - this.state.inFlight;
	}
	waiting.get(this)?.answersDuringWait.push({
		announced: headers?.['x-ratelimit-remaining'],
		remaining: this.state.remaining,
		inFlight: this.state.inFlight,
	});
};

async function main(): Promise<void> {
	const format = process.env.F === 'epoch-seconds' ? 'epoch-seconds' : 'epoch-ms';
	const sandbox = await SandboxProcess.start({
		windowSeconds: FULL.windowSeconds,
		readLimit: FULL.readLimit,
		writeLimit: FULL.writeLimit,
		rateLimitResetFormat: format,
		dataset: { leads: FULL.walkLeads, routines: 5, prospections: 20, activitiesPerProspection: 2, customFields: 3, threads: 5 },
	});
	try {
		const ids = await sandbox.call<string[]>('leadIds');
		// Warm-up walk with the limiter off: module loading belongs to no window.
		await sandbox.setRateLimit({ enabled: false, readLimit: 1e9, writeLimit: 1e9 });
		await nodeWalk({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }, FULL.pageSize, false);
		forgetRateBudgets();
		waits.length = 0;
		const result = await runSharedKey(sandbox, FULL, 0, ids);
		const turns = (result.requests.pauses ?? []).filter((p) => p.gapMs > 1000).map((p) => p.afterRequest);
		const perWindow: number[] = [];
		let previous = 0;
		for (const index of turns) {
			perWindow.push(index - previous);
			previous = index;
		}
		perWindow.push(result.requests.total - previous);
		process.stdout.write(`${JSON.stringify({ format, wallMs: result.wallMs, readsPerWindow: perWindow, tooMany: result.requests.tooMany })}\n`);
		for (const wait of waits) process.stdout.write(`${JSON.stringify(wait)}\n`);
	} finally {
		await sandbox.stop();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${(error as Error).stack ?? error}\n`);
		process.exit(1);
	},
);
