/**
 * What every rate-limited figure of the node in this process shares: its start (a reset sandbox with the figure's
 * window and budgets, no rate budget left from the previous figure) and its measure against the floor of the same
 * run.
 */
import type { BenchConfig } from './config';
import { clockWindowLeftMs, rateLimitFloor, type Floor } from './floor';
import { round } from './measure';
import { forgetRateBudgets } from './node-workflows';
import type { RequestSummary, SandboxProcess } from '../../dev/sandbox-client';

export interface NodeFigure {
	wallMs: number;
	cpuMs: number;
	floor: Floor;
	ratioToFloor: number;
	ratioToStrictFloor: number;
	requests: RequestSummary;
}

/** Gives the credentials and the index in the sandbox's request log where the figure begins. */
export async function freshRateLimitedSandbox(sandbox: SandboxProcess, config: BenchConfig) {
	await sandbox.reset();
	forgetRateBudgets();
	await sandbox.setRateLimit({
		enabled: true,
		windowSeconds: config.windowSeconds,
		readLimit: config.readLimit,
		writeLimit: config.writeLimit,
	});
	return {
		credentials: {
			baseUrl: sandbox.url,
			apiKey: sandbox.apiKey,
			readsPerWindow: config.readLimit,
			writesPerWindow: config.writeLimit,
			rateLimitWindowSeconds: config.windowSeconds,
		},
		from: await sandbox.requestCount(),
	};
}

/** The floor of `requests` reads or writes under the figure's window and budget; `clockStartMs` for clock windows. */
export function windowFloor(config: BenchConfig, kind: 'read' | 'write', requests: number, perRequestMs: number, clockStartMs?: number): Floor {
	const windowMs = config.windowSeconds * 1000;
	return rateLimitFloor({
		requests,
		limit: kind === 'read' ? config.readLimit : config.writeLimit,
		windowMs,
		perRequestMs,
		firstWindowLeftMs: clockStartMs === undefined ? windowMs : clockWindowLeftMs(clockStartMs, windowMs),
	});
}

/** A run's times beside the floor, and the calls it made. */
export function againstFloor(run: { wallMs: number; cpuMs: number }, floor: Floor, requests: RequestSummary): NodeFigure {
	return {
		wallMs: round(run.wallMs, 1),
		cpuMs: round(run.cpuMs, 1),
		floor,
		ratioToFloor: round(run.wallMs / floor.floorMs, 3),
		ratioToStrictFloor: round(run.wallMs / floor.strictFloorMs, 3),
		requests,
	};
}
