/**
 * Throughput of the sandbox for list requests of 100-item pages, measured with autocannon against loopback.
 * The sandbox runs in its own process (100,000 leads, rate limit off); pages are picked at random over the
 * whole list in both directions, so most responses are serialised fresh rather than served warm.
 *   npx ts-node --transpile-only bench/sandbox-throughput.ts [--seconds 10] [--connections 10] [--leads 100000]
 */
import autocannon from 'autocannon';

import { SeededRandom } from '../sandbox/random';
import { SandboxProcess } from '../dev/sandbox-client';

function flag(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main(): Promise<void> {
	const seconds = flag('seconds', 10);
	const connections = flag('connections', 10);
	const leads = flag('leads', 100_000);
	const started = performance.now();
	const sandbox = await SandboxProcess.start({ rateLimit: false, dataset: { leads, prospections: leads } });
	console.log(`sandbox with ${leads} leads ready in ${Math.round(performance.now() - started)} ms`);
	const { url } = sandbox;
	const pages = Math.ceil(leads / 100);
	const random = new SeededRandom(7);
	const run = async (title: string, pathFor: () => string, duration: number) => {
		const result = await autocannon({
			url,
			connections,
			duration,
			requests: [{ method: 'GET', setupRequest: (request: Record<string, unknown>) => ({ ...request, path: pathFor() }) }],
		});
		return { title, result };
	};
	const key = `apiKey=${sandbox.apiKey}`;
	const leadsPage = () =>
		`/api/v1/leads?${key}&limit=100&page=${random.int(1, pages)}&orderBy=createdAt&orderDirection=${random.next() < 0.5 ? 'asc' : 'desc'}`;
	const prospectionsPage = () => `/api/v1/prospections?${key}&limit=100&page=${random.int(1, pages)}&orderBy=createdAt&orderDirection=desc`;
	const byStatus = () => `/api/v1/prospections?${key}&limit=100&status=WON&page=${random.int(1, 50)}`;
	// A different term almost every time, so each search scans the 100,000 leads.
	const search = () => `/api/v1/leads?${key}&limit=100&search=${random.int(1000, 99999)}`;
	try {
		await run('warm-up', leadsPage, 2);
		for (const [title, pathFor] of [
			['leads, random 100-item pages', leadsPage],
			['prospections, random 100-item pages', prospectionsPage],
			['prospections filtered by one status (served from the status index)', byStatus],
			['lead search, a new term each time (scans every lead)', search],
		] as const) {
			const { result } = await run(title, pathFor, seconds);
			const non2xx = result.non2xx + result.errors;
			console.log(
				`${title}: ${Math.round(result.requests.average)} req/s average (p50 ${result.requests.p50}, min ${result.requests.min}), ` +
					`latency p50 ${result.latency.p50} ms / p99 ${result.latency.p99} ms, ${result.requests.total} requests, ${non2xx} non-2xx or errors`,
			);
		}
	} finally {
		await sandbox.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
