/**
 * Throughput of the sandbox for list requests of 100-item pages, measured with autocannon against loopback.
 * The sandbox runs in its own process (100,000 leads, rate limit off); pages are picked at random over the
 * whole list in both directions, so most responses are serialised fresh rather than served warm.
 *   npx ts-node --transpile-only sandbox/measure-throughput.ts [--seconds 10] [--connections 10] [--leads 100000]
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { SeededRandom } from './random';
import { DEMO_API_KEY } from './server';

const autocannon = require('autocannon');

function flag(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main(): Promise<void> {
	const seconds = flag('seconds', 10);
	const connections = flag('connections', 10);
	const leads = flag('leads', 100_000);
	const root = path.resolve(__dirname, '..');
	const child = spawn(
		process.execPath,
		[require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'sandbox/cli.ts', '--port', '0', '--leads', String(leads), '--prospections', String(leads), '--no-rate-limit'],
		{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	let output = '';
	let reported = false;
	const url = await new Promise<string>((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/\S+) \(ready in (\d+) ms\)/.exec(output);
			if (match && !reported) {
				reported = true;
				console.log(`sandbox with ${leads} leads ready in ${match[2]} ms`);
				resolve(match[1]);
			}
		});
		child.on('exit', () => reject(new Error(`sandbox exited:\n${output}`)));
	});
	const pages = Math.ceil(leads / 100);
	const random = new SeededRandom(7);
	const run = (title: string, pathFor: () => string, duration: number) =>
		new Promise<any>((resolve, reject) => {
			autocannon(
				{
					url,
					connections,
					duration,
					requests: [{ method: 'GET', setupRequest: (request: any) => ({ ...request, path: pathFor() }) }],
				},
				(error: Error | null, result: any) => (error ? reject(error) : resolve({ title, result })),
			);
		});
	const key = `apiKey=${DEMO_API_KEY}`;
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
		child.kill('SIGTERM');
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
