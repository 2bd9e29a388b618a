/**
 * Faults the sandbox's injected ones cannot place (they take the first matching requests), as fault plans of the
 * sandbox itself (`control.planFaults`): a fault on the n-th Lead Create only, faults that follow from an earlier
 * request, and a network that goes down once a request has reached the service. The sandbox runs in the test's process in every suite, the end-to-end one too
 * (n8n is the other process there), so no proxy stands in front of it, and its request log shows every request, the
 * ones a fault answered or dropped included. `control.reset()` or `control.planFaults(undefined)` ends a plan.
 */
import type { Fault, PlannedRequest, SandboxControl } from '../../sandbox';

const isLeadCreate = (request: PlannedRequest) => request.method === 'POST' && request.path === '/api/v1/leads';

/**
 * The n-th Lead Create (POST /api/v1/leads) from now, 1 the next one, gets `fault`; or, as it arrives, what
 * `fault()` returns. Every other request is answered as the sandbox would.
 */
export function faultOnNthCreate(control: SandboxControl, nth: number, fault: Fault | (() => Fault)): void {
	let creates = 0;
	control.planFaults((request) => {
		if (!isLeadCreate(request) || ++creates !== nth) return undefined;
		return typeof fault === 'function' ? fault() : fault;
	});
}

/**
 * The network goes down right after the next request `when` chooses has reached the service: that request is
 * applied and its answer never comes, and every later one is dropped before it reaches the service, until
 * `restore()`.
 */
export function networkDownAfter(control: SandboxControl, when: (request: PlannedRequest) => boolean): { restore(): void } {
	let down = false;
	control.planFaults((request) => {
		if (down) return { kind: 'drop', when: 'before-commit', count: 1 };
		if (!when(request)) return undefined;
		down = true;
		return { kind: 'drop', when: 'after-commit', count: 1 };
	});
	return { restore: () => control.planFaults(undefined) };
}

/**
 * Faults that follow from an earlier request, as the list read after a lost create or the delete sent after a read:
 * once a request `after` chooses has arrived, the later requests `next` chooses get `fault`, the first `fault.count`
 * of them (a latency, every one). Every other request is answered as the sandbox would.
 */
export function faultsAfter(
	control: SandboxControl,
	after: (request: PlannedRequest) => boolean,
	next: (request: PlannedRequest) => boolean,
	fault: Fault,
): void {
	let seen = false;
	let left = fault.kind === 'latency' ? Infinity : fault.count;
	control.planFaults((request) => {
		if (seen && left > 0 && next(request)) {
			left -= 1;
			return fault.kind === 'latency' ? fault : { ...fault, count: 1 };
		}
		if (after(request)) seen = true;
		return undefined;
	});
}
