/**
 * Injected faults: latency, 5xx answers (before or after the commit), slow commits, dropped connections, forced 429s,
 * 2xx answers with a body that is not the API's (before or after the commit) and redirects.
 */
import { SeededRandom } from './random';
import type { Fault } from './types';

type Counted = Exclude<Fault, { kind: 'latency' }>;

export interface RequestInfo {
	method: string;
	/** Full path, e.g. /api/v1/leads. */
	path: string;
}

const API_PREFIX = '/api/v1';

function matchesPath(prefix: string | undefined, path: string): boolean {
	if (!prefix) return true;
	// The prefix may be written with or without /api/v1.
	return path.startsWith(prefix) || (path.startsWith(API_PREFIX) && path.slice(API_PREFIX.length).startsWith(prefix));
}

function matchesMethod(methods: string[] | undefined, method: string): boolean {
	return !methods || methods.length === 0 || methods.some((m) => m.toUpperCase() === method);
}

function isStatusIn(value: unknown, low: number, high: number): boolean {
	return Number.isInteger(value) && (value as number) >= low && (value as number) <= high;
}

function whenProblem(when: unknown): string | undefined {
	return when === undefined || when === 'before-commit' || when === 'after-commit'
		? undefined
		: "when deve ser 'before-commit' ou 'after-commit'.";
}

function bodyProblem(fault: Record<string, unknown>): string | undefined {
	if (fault.body !== undefined && typeof fault.body !== 'string') return 'body deve ser um texto.';
	if (fault.contentType !== undefined && typeof fault.contentType !== 'string') return 'contentType deve ser um texto.';
	return undefined;
}

/** Checks a fault description received over HTTP; returns an error message or undefined. */
export function faultProblem(f: unknown): string | undefined {
	if (!f || typeof f !== 'object') return 'A falha deve ser um objeto.';
	const fault = f as Record<string, unknown>;
	const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 1;
	switch (fault.kind) {
		case 'latency':
			return Number.isFinite(fault.ms) && (fault.ms as number) >= 0 ? undefined : 'ms deve ser um número >= 0.';
		case 'status':
			// 4xx too: a proxy or firewall in front of the service may refuse with any status. A 429 is the rate-limit fault.
			if (!isStatusIn(fault.status, 400, 599) || fault.status === 429) return 'status deve ser um inteiro de 400 a 599, exceto 429.';
			return whenProblem(fault.when) ?? bodyProblem(fault) ?? (isCount(fault.count) ? undefined : 'count deve ser um inteiro >= 1.');
		case 'slow-commit': {
			const isMs = (v: unknown) => Number.isFinite(v) && (v as number) >= 0;
			if (!isMs(fault.commitAfterMs)) return 'commitAfterMs deve ser um número >= 0.';
			if (fault.answerAfterMs !== undefined && !(isMs(fault.answerAfterMs) && (fault.answerAfterMs as number) >= (fault.commitAfterMs as number)))
				return 'answerAfterMs deve ser um número >= commitAfterMs.';
			if (fault.gatewayTimeoutMs !== undefined && !isMs(fault.gatewayTimeoutMs))
				return 'gatewayTimeoutMs deve ser um número >= 0.';
			return isCount(fault.count) ? undefined : 'count deve ser um inteiro >= 1.';
		}
		case 'drop':
			if (fault.when !== 'before-commit' && fault.when !== 'after-commit')
				return "when deve ser 'before-commit' ou 'after-commit'.";
			if (fault.probability !== undefined && !(typeof fault.probability === 'number' && fault.probability >= 0 && fault.probability <= 1))
				return 'probability deve estar entre 0 e 1.';
			return isCount(fault.count) ? undefined : 'count deve ser um inteiro >= 1.';
		case 'rate-limit':
			if (fault.retryAfterSeconds !== undefined && !isCount(fault.retryAfterSeconds))
				return 'retryAfterSeconds deve ser um inteiro >= 1.';
			if (fault.hints !== undefined && typeof fault.hints !== 'boolean') return 'hints deve ser true ou false.';
			return isCount(fault.count) ? undefined : 'count deve ser um inteiro >= 1.';
		case 'malformed':
			if (fault.status !== undefined && !isStatusIn(fault.status, 200, 299)) return 'status deve ser um inteiro de 200 a 299.';
			return whenProblem(fault.when) ?? bodyProblem(fault) ?? (isCount(fault.count) ? undefined : 'count deve ser um inteiro >= 1.');
		case 'redirect':
			if (![301, 302, 303, 307, 308].includes(fault.status as number)) return 'status deve ser 301, 302, 303, 307 ou 308.';
			if (fault.location !== undefined && (typeof fault.location !== 'string' || fault.location.trim() === '')) return 'location, quando dada, deve ser um texto não vazio.';
			return isCount(fault.count) ? undefined : 'count deve ser um inteiro >= 1.';
		default:
			return "kind deve ser 'status', 'drop', 'slow-commit', 'latency', 'rate-limit', 'malformed' ou 'redirect'.";
	}
}

export class FaultSet {
	private counted: Array<{ fault: Counted; remaining: number }> = [];
	private latencies: number[] = [];
	private random: SeededRandom;

	constructor(private readonly seed: number) {
		this.random = new SeededRandom(seed ^ 0xfa17);
	}

	add(fault: Fault): void {
		if (fault.kind === 'latency') this.latencies.push(fault.ms);
		else this.counted.push({ fault: { ...fault }, remaining: fault.count });
	}

	clear(): void {
		this.counted = [];
		this.latencies = [];
		this.random = new SeededRandom(this.seed ^ 0xfa17);
	}

	list(): Fault[] {
		return [
			...this.latencies.map((ms) => ({ kind: 'latency' as const, ms })),
			...this.counted.map(({ fault, remaining }) => ({ ...fault, count: remaining })),
		];
	}

	latencyMs(): number {
		let total = 0;
		for (const ms of this.latencies) total += ms;
		return total;
	}

	/** The first pending fault of `kind` that applies to the request; it is consumed. */
	take<K extends Counted['kind']>(
		kind: K,
		request: RequestInfo,
		accept?: (fault: Extract<Counted, { kind: K }>) => boolean,
	): Extract<Counted, { kind: K }> | undefined {
		if (this.counted.length === 0) return undefined;
		for (let i = 0; i < this.counted.length; i++) {
			const entry = this.counted[i];
			const fault = entry.fault;
			if (fault.kind !== kind) continue;
			if ('pathPrefix' in fault && !matchesPath(fault.pathPrefix, request.path)) continue;
			if ('methods' in fault && !matchesMethod(fault.methods, request.method)) continue;
			if (accept && !accept(fault as Extract<Counted, { kind: K }>)) continue;
			if (fault.kind === 'drop' && fault.probability !== undefined && this.random.next() >= fault.probability) continue;
			entry.remaining--;
			if (entry.remaining <= 0) this.counted.splice(i, 1);
			return fault as Extract<Counted, { kind: K }>;
		}
		return undefined;
	}
}
