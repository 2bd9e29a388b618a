/**
 * The name of a spike case's results file, from the options that make the case: a run of the same case overwrites
 * its file, so bench/results/ holds one file per case and the history of runs is git's.
 * Example: `--posts=1000,1000 --deployments=queue-4 --double=0` is `spike.queue-4-1000`.
 */
export interface CaseOptions {
	/** Deployments (single, queue-2, queue-4); the n8n baseline has none of its own. */
	deployments: string[];
	posts: number[];
	double?: number;
	rateHeaders?: 'always' | 'on-429';
	clockWindows?: boolean;
	realWindow?: boolean;
	otherClient?: number;
	processesUnstated?: boolean;
	concurrencyLimit?: number;
	nodeOptions?: string;
}

export function spikeCaseName(options: CaseOptions): string {
	const heap = /--max-old-space-size=(\d+)/.exec(options.nodeOptions ?? '')?.[1];
	const parts = [
		`${options.deployments.join('+')}-${[...new Set(options.posts)].join('+')}`,
		options.rateHeaders === 'on-429' ? 'on-429' : '',
		options.clockWindows ? 'clock-windows' : '',
		options.realWindow ? 'window-60' : '',
		options.otherClient ? `other-${options.otherClient}` : '',
		options.processesUnstated ? 'processes-unstated' : '',
		options.concurrencyLimit !== undefined ? `limit-${options.concurrencyLimit}` : '',
		heap ? `heap-${heap}` : '',
		options.double && options.deployments.includes('single') ? `double-${options.double}` : '',
	];
	return `spike.${parts.filter(Boolean).join('-')}`;
}
