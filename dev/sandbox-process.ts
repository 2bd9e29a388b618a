/**
 * Runs one sandbox in its own process, so a benchmark process measures only the client's CPU and
 * the server gets the machine's other core. Started by `SandboxProcess.start` (sandbox-client.ts);
 * options arrive as JSON in BENCH_SANDBOX_OPTIONS and control calls arrive over IPC.
 */
import { startSandbox } from '../sandbox';

interface CallMessage {
	id: number;
	method: string;
	args: unknown[];
}

async function main(): Promise<void> {
	const options = JSON.parse(process.env.BENCH_SANDBOX_OPTIONS ?? '{}');
	const sandbox = await startSandbox(options);
	const control = sandbox.control as unknown as Record<string, (...args: unknown[]) => unknown>;

	// Aggregates computed here so that large views (60,000 leads) never cross the IPC channel whole.
	const aggregates: Record<string, (...args: any[]) => unknown> = {
		requestCount: () => sandbox.control.requests().length,
		requestSummary: (fromIndex = 0) => {
			const all = sandbox.control.requests().slice(fromIndex as number);
			const byStatus: Record<string, number> = {};
			const byKind: Record<string, number> = {};
			let first = Infinity;
			let last = -Infinity;
			// Pauses between consecutive requests (longer than 50 ms): where a client waited.
			const pauses: Array<{ afterRequest: number; atMs: number; gapMs: number }> = [];
			let previous: number | undefined;
			for (const [index, r] of all.entries()) {
				const at = typeof r.at === 'number' ? r.at : Date.parse(String(r.at));
				if (previous !== undefined && at - previous > 50 && pauses.length < 100) {
					pauses.push({ afterRequest: index, atMs: previous - (Number.isFinite(first) ? first : previous), gapMs: at - previous });
				}
				previous = at;
				byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
				byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
				first = Math.min(first, at);
				last = Math.max(last, at);
			}
			return {
				total: all.length,
				byStatus,
				byKind,
				tooMany: byStatus['429'] ?? 0,
				firstAt: Number.isFinite(first) ? first : null,
				lastAt: Number.isFinite(last) ? last : null,
				pauses,
			};
		},
		/** Requests since `fromIndex` matching every given field (query values compared as strings). */
		countRequests: (fromIndex: number, match: { method?: string; path?: string; status?: number; query?: Record<string, string> }) =>
			sandbox.control
				.requests()
				.slice(fromIndex)
				.filter(
					(r) =>
						(match.method === undefined || r.method === match.method) &&
						(match.path === undefined || r.path === match.path) &&
						(match.status === undefined || r.status === match.status) &&
						Object.entries(match.query ?? {}).every(([key, value]) => String(r.query[key]) === value),
				).length,
		leadIds: () => sandbox.control.leads().map((lead) => String(lead.id)),
		leadCount: () => sandbox.control.leads().length,
		leadNameCounts: (prefix: string) => {
			const counts: Record<string, number> = {};
			for (const lead of sandbox.control.leads()) {
				const name = String((lead as { name?: unknown }).name ?? '');
				if (name.startsWith(prefix)) counts[name] = (counts[name] ?? 0) + 1;
			}
			return counts;
		},
		webhooks: () => sandbox.control.webhooks(),
		stop: async () => {
			await sandbox.stop();
			setImmediate(() => process.exit(0));
			return true;
		},
	};

	process.on('message', async (message: CallMessage) => {
		try {
			const fn = aggregates[message.method] ?? control[message.method];
			if (typeof fn !== 'function') throw new Error(`unknown sandbox call ${message.method}`);
			const result = await fn.apply(aggregates[message.method] ? undefined : control, message.args);
			process.send?.({ id: message.id, result });
		} catch (error) {
			process.send?.({ id: message.id, error: (error as Error).message });
		}
	});
	process.on('disconnect', () => process.exit(0));
	process.send?.({ ready: true, url: sandbox.url, apiKey: sandbox.apiKey });
}

main().catch((error) => {
	process.send?.({ ready: false, error: (error as Error).stack ?? String(error) });
	process.exit(1);
});
