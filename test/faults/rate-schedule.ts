/**
 * Random schedules for the rate policy (fast-check), and each one told as a story: the service, the credentials, the
 * calls, then what happened when rate-model.ts ran it, one line per event on the simulated clock.
 */
import fc from 'fast-check';

import { simulate, type Call, type Credential, type Happening, type Schedule, type Service } from './rate-model';

const WINDOWS_MS = [1000, 2000, 5000, 60_000];

const service: fc.Arbitrary<Service> = fc.record({
	windowMs: fc.constantFrom(...WINDOWS_MS),
	limit: fc.record({ read: fc.constantFrom(0, 1, 2, 3, 5, 10), write: fc.constantFrom(0, 1, 2, 3, 5) }),
	windows: fc.constantFrom('first-call' as const, 'clock' as const),
	phaseMs: fc.nat(59_999),
	headers: fc.constantFrom('always' as const, 'on-429' as const),
	reset: fc.constantFrom('epoch-seconds' as const, 'epoch-ms' as const, 'delta-seconds' as const, 'none' as const),
	retryAfter: fc.constantFrom('seconds' as const, 'date' as const, 'milliseconds' as const, 'none' as const, 'words' as const),
	clockSkewMs: fc.constantFrom(0, 0, 400, -400, 5000, -5000, 30_000, -30_000),
	sendsDate: fc.boolean(),
});

/**
 * A credential of key 0 or 1 behind one of three base URLs (one key behind two of them), its settings any (a window
 * shorter than a read's waits between its tries among them) or the service's.
 */
const credential = (truthful: Service | undefined): fc.Arbitrary<Credential> =>
	fc.record({
		key: fc.constantFrom('k0', 'k1'),
		baseUrl: fc.constantFrom('https://api.example.com', 'http://api.example.com', 'https://other.example.com'),
		limit: truthful ? fc.record({ read: fc.integer({ min: 1, max: Math.max(1, truthful.limit.read) }), write: fc.integer({ min: 1, max: Math.max(1, truthful.limit.write) }) }) : fc.record({ read: fc.constantFrom(1, 2, 3, 5, 10, 200), write: fc.constantFrom(1, 2, 3, 5, 100) }),
		windowMs: truthful ? fc.constantFrom(...WINDOWS_MS.filter((ms) => ms >= truthful.windowMs)) : fc.constantFrom(0, 500, ...WINDOWS_MS),
		processes: truthful ? fc.constant(1) : fc.constantFrom(1, 1, 2, 4),
		resetUnit: fc.constantFrom('auto' as const, 'auto' as const, 'epochSeconds' as const, 'epochMs' as const, 'secondsFromNow' as const),
	});

const call = (processes: number, credentials: number, horizonMs: number): fc.Arbitrary<Call> =>
	fc.record({
		at: fc.nat(horizonMs),
		process: fc.nat(processes - 1),
		credential: fc.nat(credentials - 1),
		kind: fc.constantFrom('read' as const, 'write' as const),
		tripMs: fc.tuple(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 })),
		tool: fc.boolean(),
		maxWaitMs: fc.constantFrom(0, 1000, 5000, 30_000, 300_000),
		drops: fc.constantFrom(0, 0, 0, 0, 1, 2, 5),
		stopAt: fc.option(fc.nat(10_000), { freq: 8 }),
	}).map((c) => ({ ...c, stopAt: c.stopAt === null ? undefined : c.at + c.stopAt }));

/** A schedule the guarantees are stated for: one process, truthful credentials, no other client, no setting changed. */
export function isTruthful(schedule: Schedule): boolean {
	return schedule.processes === 1 && schedule.others.length === 0 && schedule.changes.length === 0 && schedule.credentials.every((credential) => credential.processes === 1 && credential.windowMs >= schedule.service.windowMs && credential.limit.read <= schedule.service.limit.read && credential.limit.write <= schedule.service.limit.write);
}

/** Any schedule, half of them truthful (see `isTruthful`), so that the guarantees that need it are tried as often. */
export const schedules: fc.Arbitrary<Schedule> = fc
	.tuple(service, fc.boolean(), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }))
	.chain(([svc, truthful, processes, credentials]) => {
		const horizonMs = 3 * svc.windowMs;
		const setting = credential(truthful ? svc : undefined);
		return fc.record({
			service: fc.constant(svc),
			credentials: fc.array(setting, { minLength: credentials, maxLength: credentials }),
			processes: fc.constant(truthful ? 1 : processes),
			calls: fc.array(call(truthful ? 1 : processes, credentials, horizonMs), { minLength: 1, maxLength: 30 }).map((calls) => calls.sort((a, b) => a.at - b.at)),
			others: truthful ? fc.constant<Schedule['others']>([]) : fc.array(fc.record({ at: fc.nat(horizonMs), kind: fc.constantFrom('read' as const, 'write' as const) }), { maxLength: 6 }),
			changes: truthful ? fc.constant<Schedule['changes']>([]) : fc.array(fc.tuple(fc.nat(horizonMs), fc.nat(credentials - 1), credential(undefined)).map(([at, index, to]) => ({ at, credential: index, limit: to.limit, windowMs: to.windowMs, processes: to.processes, resetUnit: to.resetUnit })), { maxLength: 2 }),
		});
	})
	.map(withStory);

/** Processes that share one key without saying so (the processes setting left at 1), under a load of many windows. */
export const sharedKeyLoads: fc.Arbitrary<Schedule> = fc
	.record({
		processes: fc.integer({ min: 2, max: 4 }),
		limit: fc.constantFrom(10, 20, 40),
		windows: fc.constantFrom('first-call' as const, 'clock' as const),
		reset: fc.constantFrom('epoch-seconds' as const, 'epoch-ms' as const, 'delta-seconds' as const),
		tripsSeed: fc.integer(),
		longestTripMs: fc.integer({ min: 20, max: 300 }),
	})
	.map(({ processes, limit, windows, reset, tripsSeed, longestTripMs }) => {
		// Every trip its own, as over a network: processes whose calls arrive in lockstep are not drawn (see docs).
		const trip = fc.sample(fc.tuple(fc.integer({ min: 5, max: longestTripMs }), fc.integer({ min: 5, max: longestTripMs })), { seed: tripsSeed, numRuns: 400 });
		const windowMs = 5000;
		const svc: Service = { windowMs, limit: { read: limit, write: limit }, windows, phaseMs: 0, headers: 'always', reset, retryAfter: 'seconds', clockSkewMs: 0, sendsDate: true };
		const setting: Credential = { key: 'k0', baseUrl: 'https://api.example.com', limit: { read: limit, write: limit }, windowMs, processes: 1, resetUnit: 'auto' };
		// Each process has half as much again as its part of the limit to send in every window, over eight windows.
		const perWindow = Math.ceil((1.5 * limit) / processes);
		const calls: Call[] = [];
		for (let window = 0; window < 8; window++) {
			for (let process = 0; process < processes; process++) {
				for (let n = 0; n < perWindow; n++) {
					const at = window * windowMs + Math.floor((n * windowMs) / perWindow);
					calls.push({ at, process, credential: 0, kind: 'write', tripMs: trip[calls.length % trip.length], tool: false, maxWaitMs: 300_000, drops: 0 });
				}
			}
		}
		return withStory({ service: svc, credentials: [setting], processes, calls: calls.sort((a, b) => a.at - b.at), others: [], changes: [] });
	});

/** The schedule printed as a story when a property fails: what it was, then what happened. */
function withStory(schedule: Schedule): Schedule {
	return Object.assign(schedule, { [fc.toStringMethod]: () => story(schedule) });
}

export function story(schedule: Schedule, history: Happening[] = simulate(schedule).history): string {
	const { service: s } = schedule;
	const lines = [
		`service: windows of ${s.windowMs} ms (${s.windows === 'clock' ? `on the clock, phase ${s.phaseMs} ms` : 'from a first call'}), ${s.limit.read} reads / ${s.limit.write} writes; X-RateLimit-* ${s.headers === 'always' ? 'on every answer' : 'on 429 only'}, reset ${s.reset}, Retry-After ${s.retryAfter}; clock ${s.clockSkewMs} ms ahead, Date ${s.sendsDate ? 'sent' : 'not sent'}`,
		...schedule.credentials.map((c, i) => `credential ${i}: key ${c.key} at ${c.baseUrl}, ${c.limit.read} reads / ${c.limit.write} writes per ${c.windowMs} ms, ${c.processes} process(es), reset unit ${c.resetUnit}`),
		`${schedule.processes} n8n process(es); another client's calls at ${schedule.others.map((o) => `${o.at} (${o.kind})`).join(', ') || 'none'}`,
		...schedule.changes.map((c) => `at ${c.at} ms credential ${c.credential} becomes ${c.limit.read} reads / ${c.limit.write} writes per ${c.windowMs} ms, ${c.processes} process(es), unit ${c.resetUnit}`),
		...schedule.calls.map((c, i) => `call ${i}: ${c.kind} at ${c.at} ms from process ${c.process} with credential ${c.credential}, trips ${c.tripMs.join('+')} ms, ${c.tool ? 'tool' : 'workflow'} with Max Rate Limit Wait ${c.maxWaitMs} ms${c.drops ? `, first ${c.drops} connection(s) dropped` : ''}${c.stopAt !== undefined ? `, stopped at ${c.stopAt} ms` : ''}`),
		'what happened:',
		...history.map(tell),
	];
	return lines.join('\n');
}

function tell(h: Happening): string {
	const t = `${String(h.t).padStart(7)} ms  `;
	switch (h.what) {
		case 'ask': return `${t}call ${h.call} asks for its turn`;
		case 'send': return `${t}call ${h.call} is sent (attempt ${h.attempt})${h.ahead ? `, though ${h.ahead} call(s) came before it and wait` : ''}`;
		case 'counted': return `${t}service counts call ${h.call} in its window from ${h.window} ms: ${h.status} ${JSON.stringify(h.headers)}`;
		case 'answer': return `${t}call ${h.call} answered ${h.status}${h.holdMs ? `; the key held ${h.holdMs} ms (${h.heldBy})` : ''}`;
		case 'dropped': return `${t}call ${h.call}'s connection dropped`;
		case 'fail': return `${t}call ${h.call} fails: ${h.reason === 'rate' ? `rate limit, ${h.held ? 'held by a 429' : 'its turn'}, ${h.neededMs === undefined ? 'after the calls ahead' : `needs ${h.neededMs} ms more`}` : 'its network failure'}`;
		case 'stopped': return `${t}call ${h.call} stopped by the user`;
		case 'done': return `${t}call ${h.call} done`;
		case 'other': return `${t}another client's ${h.kind}: ${h.status}`;
		case 'swept': return `${t}process ${h.process} dropped the ${h.kind} budget of key ${h.key}${h.holding ? ' while it still held calls' : ''}`;
	}
}
