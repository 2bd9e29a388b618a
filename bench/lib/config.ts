/** Sizes of a benchmark run: the full default and the quick sanity run (`npm run bench -- --quick`). */
export interface BenchConfig {
	mode: 'full' | 'quick';
	/** The shortened window every rate-limited figure runs under, and the budgets per window. */
	windowSeconds: number;
	readLimit: number;
	writeLimit: number;
	/** Leads in the walk's dataset and the page size of every walk. */
	walkLeads: number;
	pageSize: number;
	/** Input items of the bulk create. */
	bulkItems: number;
	/** Leads in the overhead dataset (rate limit off) and how many node/bare pairs are timed. */
	overheadLeads: number;
	overheadRepeats: number;
	/** Bare-loop repeats that give the per-request time the floors use. */
	perRequestRepeats: number;
	/** Deliveries pushed through the trigger's webhook() in process. */
	triggerDeliveries: number;
	/** autocannon against real n8n's webhook endpoint. */
	loadSeconds: number;
	loadConnections: number;
	/** The real service's window, for the alternative run at real proportions. */
	realWindowSeconds: number;
}

export const FULL: BenchConfig = {
	mode: 'full',
	windowSeconds: 5,
	readLimit: 200,
	writeLimit: 100,
	walkLeads: 60_000,
	pageSize: 100,
	bulkItems: 500,
	overheadLeads: 20_000,
	overheadRepeats: 5,
	perRequestRepeats: 5,
	triggerDeliveries: 5_000,
	loadSeconds: 15,
	loadConnections: 10,
	realWindowSeconds: 60,
};

/** Same shape (three read windows, five write windows) at a tenth of the size and a shorter window. */
export const QUICK: BenchConfig = {
	mode: 'quick',
	windowSeconds: 2,
	readLimit: 20,
	writeLimit: 10,
	walkLeads: 6_000,
	pageSize: 100,
	bulkItems: 50,
	overheadLeads: 2_000,
	overheadRepeats: 3,
	perRequestRepeats: 2,
	triggerDeliveries: 500,
	loadSeconds: 5,
	loadConnections: 10,
	realWindowSeconds: 60,
};
