/** What a spike left behind in the service: leads per person, routine adds, 429s per window. */
import type { SandboxProcess } from '../../dev/sandbox-client';
import type { ProxiedCall } from '../lib/worker-proxies';
import { callKind } from '../../nodes/Prospecting/transport/rateBudget';
import { rebuildWindows, windowIndexes, type WindowCount } from '../queue-mode/run';

export interface LeadsOutcome {
	people: number;
	createdOnce: number;
	createdTwiceOrMore: number;
	missing: number;
	/** Leads beyond one per person. */
	extraLeads: number;
	/** People whose lead is in the routine. */
	inRoutine: number;
}

export interface WindowsOutcome {
	windows: WindowCount[];
	tooMany: number;
	max429PerWindow: number;
}

export const personName = (tag: string, index: number) => `${tag} ${index}`;
export const personEmail = (tag: string, index: number) => `${tag.toLowerCase()}-${index}@example.com`;

export async function leadsOutcome(sandbox: SandboxProcess, tag: string, people: number, routineId: string): Promise<LeadsOutcome> {
	const leads = await sandbox.call<Array<{ name?: string; routineIds?: string[] }>>('leads');
	const byName = new Map<string, Array<{ routineIds?: string[] }>>();
	for (const lead of leads) {
		if (!lead.name?.startsWith(`${tag} `)) continue;
		byName.set(lead.name, [...(byName.get(lead.name) ?? []), lead]);
	}
	const outcome: LeadsOutcome = { people, createdOnce: 0, createdTwiceOrMore: 0, missing: 0, extraLeads: 0, inRoutine: 0 };
	for (let i = 0; i < people; i++) {
		const found = byName.get(personName(tag, i)) ?? [];
		if (found.length === 0) outcome.missing++;
		else if (found.length === 1) outcome.createdOnce++;
		else {
			outcome.createdTwiceOrMore++;
			outcome.extraLeads += found.length - 1;
		}
		if (found.some((lead) => lead.routineIds?.includes(routineId))) outcome.inRoutine++;
	}
	return outcome;
}

/** Successful Routine Add Lead calls since the sandbox's log was last cleared. */
export async function routineAdds(sandbox: SandboxProcess, routineId: string): Promise<number> {
	return await sandbox.call<number>('countRequests', 0, { method: 'POST', path: `/api/v1/routines/${routineId}/lead`, status: 200 });
}

/** The sandbox's windows of one kind of call, rebuilt from its request log (cleared at the case's start). */
export async function windowsOutcome(sandbox: SandboxProcess, kind: 'read' | 'write', windowSeconds: number, clockWindows = false): Promise<WindowsOutcome> {
	const calls = (await sandbox.call<Array<{ at: string; status: number; kind: string }>>('requests'))
		.filter((call) => call.kind === kind)
		.map((call) => ({ at: Date.parse(call.at), status: call.status }));
	const windows = rebuildWindows(calls, windowSeconds * 1000, clockWindows);
	return {
		windows,
		tooMany: windows.reduce((sum, window) => sum + window.tooMany, 0),
		max429PerWindow: Math.max(0, ...windows.map((window) => window.tooMany)),
	};
}

/** Refusals per worker and window, from the calls each worker's proxy saw (bench/lib/worker-proxies.ts). */
export interface PerWorkerRefusals {
	/** Refusals of each worker, all windows of both kinds together. */
	perWorker: number[];
	/** The most 429s any one worker drew in one window of reads or of writes: the target is at most 1. */
	mostInOneWindow: number;
	/**
	 * Where the most came, and each of them in ms after the first: a few ms apart, calls sent together on one stale
	 * figure; seconds apart, calls sent again after waits.
	 */
	worst?: { kind: 'read' | 'write'; window: number; worker: number; afterFirstMs: number[] };
}

/**
 * The proxies' calls of one kind with the window each fell in, rebuilt from the proxies' own times as the sandbox
 * counts them (reads and writes apart: the node's own rule for which budget a call spends).
 */
function callsInWindows(
	calls: ProxiedCall[],
	kind: 'read' | 'write',
	windowSeconds: number,
	clockWindows: boolean,
): Array<{ call: ProxiedCall; window: number }> {
	const ofKind = calls.filter((call) => callKind(call.method) === kind);
	return windowIndexes(ofKind, windowSeconds * 1000, clockWindows).map((window, i) => ({ call: ofKind[i], window }));
}

/** Each refusal counted for the worker that sent it, window by window, reads and writes apart. */
export function perWorkerRefusals(calls: ProxiedCall[], workers: number, windowSeconds: number, clockWindows = false): PerWorkerRefusals {
	const perWorker = Array.from({ length: workers }, () => 0);
	const inOneWindow = new Map<string, { kind: 'read' | 'write'; window: number; worker: number; at: number[] }>();
	for (const kind of ['read', 'write'] as const) {
		for (const { call, window } of callsInWindows(calls, kind, windowSeconds, clockWindows)) {
			if (call.status !== 429) continue;
			perWorker[call.worker] += 1;
			const key = `${kind} ${window} ${call.worker}`;
			const refusals = inOneWindow.get(key) ?? { kind, window, worker: call.worker, at: [] };
			inOneWindow.set(key, { ...refusals, at: [...refusals.at, call.at] });
		}
	}
	let worst: PerWorkerRefusals['worst'];
	for (const { at, ...where } of inOneWindow.values()) {
		if (at.length > (worst?.afterFirstMs.length ?? 0)) worst = { ...where, afterFirstMs: at.map((time) => time - at[0]) };
	}
	return { perWorker, mostInOneWindow: worst?.afterFirstMs.length ?? 0, worst };
}

/** Each write window as the workers' proxies saw it, per worker. */
export interface PerWorkerWrites {
	/** Calls each worker had counted (not refused) in each write window: who used a window's calls. */
	counted: number[][];
	/** When each worker's first write of the window came, in ms after the window opened (null: none came). */
	firstAtMs: Array<Array<number | null>>;
}

/**
 * Each write window per worker, from the proxies' times as the sandbox counts them: who used a window's calls, and
 * whether a worker with few of them came late into the window or came early and sent few.
 */
export function perWorkerWrites(calls: ProxiedCall[], workers: number, windowSeconds: number, clockWindows = false): PerWorkerWrites {
	const counted: number[][] = [];
	const firstAtMs: Array<Array<number | null>> = [];
	const openedAt: number[] = [];
	for (const { call, window } of callsInWindows(calls, 'write', windowSeconds, clockWindows)) {
		openedAt[window] ??= call.at;
		const counts = (counted[window] ??= Array.from({ length: workers }, () => 0));
		const firsts = (firstAtMs[window] ??= Array.from({ length: workers }, () => null));
		if (call.status !== 429) counts[call.worker] += 1;
		firsts[call.worker] ??= call.at - openedAt[window];
	}
	return { counted, firstAtMs };
}
