/** What one running sandbox holds: its data, rate windows, faults, webhook deliveries and the requests it recorded. */
import type { Deliverer } from './deliveries';
import type { FaultSet } from './faults';
import type { RateLimiter } from './rate-limiter';
import type { Store } from './store';
import type { FaultPlan, RecordedRequest, SandboxOptions } from './types';

export interface SandboxState {
	options: Required<Pick<SandboxOptions, 'seed' | 'signatureHeader'>>;
	store: Store;
	/** The keys the service accepts: one per account. */
	apiKeys: Set<string>;
	limiter: RateLimiter;
	faults: FaultSet;
	/** Chooses a fault per request before the injected ones (in process only). */
	plan?: FaultPlan;
	deliverer: Deliverer;
	requests: RecordedRequest[];
	/** Requests arrived since the last reset. */
	arrivals: number;
}
