/**
 * Service failures the existing suites touch only in part: 500 and 502 as well as 503, retries
 * that stop at their bound, and writes answered 500 or 503 reported per item without a second send. The
 * pauses between read retries run on a controlled clock (dev/harness/clock.ts).
 */
import * as http from 'node:http';
import * as net from 'node:net';

import { MAX_READ_RETRIES, READ_RETRY_BASE_MS } from '../../nodes/Prospecting/transport/request';
import { expectNoSecret, jsonOf, runNode, runNodeOnClock } from '../nodes/support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 11 } });

const statuses = () => sandbox.control.requests().map((request) => request.status);
const walkLeads = { resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 4 } };

it('a burst of 500, 502, 503 and a dropped connection on one page is retried; the walk returns exactly the stored leads', async () => {
	for (const status of [500, 502, 503] as const) {
		sandbox.control.injectFault({ kind: 'status', status, count: 1, methods: ['GET'] });
	}
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['GET'] });
	const run = await runNodeOnClock(walkLeads, connection);
	expect(run.error).toBeUndefined();
	const stored = sandbox.control.leads().map((lead) => lead.id);
	expect(jsonOf(run.items).map((lead) => lead.id)).toEqual(stored);
	// The four failures, then three pages of 4, 4 and 3 leads.
	expect(statuses()).toEqual([500, 502, 503, 0, 200, 200, 200]);
	expect(run.logs.filter((line) => line.includes('retry'))).toEqual(
		['status 500', 'status 502', 'status 503', 'ECONNRESET'].map(
			(reason, retry) => `[debug] Prospecting: GET /leads failed (${reason}); retry ${retry + 1} in ${READ_RETRY_BASE_MS * 2 ** retry} ms`,
		),
	);
	expectNoSecret(run, sandbox.apiKey);
});

it('a read that keeps failing with 502 stops after 5 attempts with a clear error', async () => {
	sandbox.control.injectFault({ kind: 'status', status: 502, count: 50, methods: ['GET'] });
	const run = await runNodeOnClock(walkLeads, connection);
	expect(run.error?.message).toBe(`The service failed to process the request (502) after ${1 + MAX_READ_RETRIES} attempts`);
	expect(String((run.error as { description?: string }).description)).toMatch(/item 0, GET \/leads/);
	expect(statuses()).toEqual(new Array(1 + MAX_READ_RETRIES).fill(502));
});

it('a read whose connection always drops stops after 5 attempts saying the service could not be reached', async () => {
	sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 50, methods: ['GET'] });
	const run = await runNodeOnClock(walkLeads, connection);
	expect(run.error?.message).toMatch(new RegExp(`^Could not reach the service after ${1 + MAX_READ_RETRIES} attempts: `));
	expect(statuses()).toEqual(new Array(1 + MAX_READ_RETRIES).fill(0));
	expectNoSecret(run, sandbox.apiKey);
});

/** Something on the Base URL's port that answers every request with bytes that are not HTTP; counts connections. */
async function notHttpServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
	let connections = 0;
	const server = net.createServer((socket) => {
		connections += 1;
		socket.on('error', () => undefined);
		socket.on('data', () => socket.end('NOT HTTP\r\n\r\n'));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		connections: () => connections,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('a Base URL where something other than the service answers', () => {
	it('a read answered with bytes that are not HTTP is retried like a dropped connection, then fails after 5 attempts', async () => {
		const other = await notHttpServer();
		try {
			const run = await runNodeOnClock(walkLeads, { baseUrl: `http://127.0.0.1:${other.port}`, apiKey: sandbox.apiKey });
			expect(run.error?.message).toBe(`Could not reach the service after ${1 + MAX_READ_RETRIES} attempts: the connection failed`);
			expect(other.connections()).toBe(1 + MAX_READ_RETRIES);
			expect(run.logs.filter((line) => line.includes('retry'))).toEqual(
				Array.from({ length: MAX_READ_RETRIES }, (_, retry) => `[debug] Prospecting: GET /leads failed (network error); retry ${retry + 1} in ${READ_RETRY_BASE_MS * 2 ** retry} ms`),
			);
		} finally {
			await other.close();
		}
	});

	it('a read or a write answered 300 with a JSON body is never taken for the answer: it fails as a redirect, the write as refused', async () => {
		// 300 Multiple Choices, the lowest redirect status: its body lists where to go, and could pass for a page.
		const choices = http.createServer((_req, res) => {
			res.writeHead(300, { 'Content-Type': 'application/json', Location: 'https://mirror.example.com/api/v1/leads' });
			res.end(JSON.stringify({ data: [{ id: 'not-a-lead' }], meta: { page: 1, totalPages: 1 } }));
		});
		await new Promise<void>((resolve) => choices.listen(0, '127.0.0.1', resolve));
		try {
			const port = (choices.address() as net.AddressInfo).port;
			const run = await runNodeOnClock(walkLeads, { baseUrl: `http://127.0.0.1:${port}`, apiKey: sandbox.apiKey });
			expect(run.error?.message).toBe('GET /leads was redirected (300), and redirects are not followed: Location https://mirror.example.com/api/v1/leads');
			expect(run.items).toEqual([]);
			// A redirect is not the service applying the write: refused, so Lead Create does not look for a lost lead.
			const create = await runNodeOnClock(
				{ resource: 'lead', operation: 'create', email: 'joana.escolha@example.com' },
				{ baseUrl: `http://127.0.0.1:${port}`, apiKey: sandbox.apiKey, continueOnFail: true },
			);
			expect(create.items.map((item) => [item.json.writeOutcome, item.json.error])).toEqual([
				['refused', 'POST /leads was redirected (300), and redirects are not followed: Location https://mirror.example.com/api/v1/leads'],
			]);
		} finally {
			await new Promise<void>((resolve) => choices.close(() => resolve()));
		}
	});

	it('a read over https from something that speaks plain text fails at once: retrying cannot mend the Base URL', async () => {
		const other = await notHttpServer();
		try {
			const run = await runNodeOnClock(walkLeads, { baseUrl: `https://127.0.0.1:${other.port}`, apiKey: sandbox.apiKey });
			expect(run.error?.message).toBe('Could not reach the service: the connection failed (eproto)');
			expect(String((run.error as { description?: string }).description)).toMatch(/^Check the base URL in the credential/);
			expect(other.connections()).toBe(1);
		} finally {
			await other.close();
		}
	});
});

// Every 5xx to a write may come after the service applied it (a gateway that gave up, a crash after the commit): its
// outcome is unknown, so it is never sent again. 502/504 with the lost-answer searches: nodes/lost-writes.
it.each([500, 503] as const)(
	'a write answered %i fails its own item, is not sent again, and the other items go on',
	async (status) => {
		sandbox.control.injectFault({ kind: 'status', status, count: 1, methods: ['POST'], pathPrefix: '/webhooks' });
		const run = await runNode(
			{ resource: 'webhook', operation: 'create', name: '={{ $json.name }}', url: 'https://example.com/hook' },
			{ ...connection, continueOnFail: true, inputItems: [{ name: 'first' }, { name: 'second' }] },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		expect(run.items[0].json).toMatchObject({
			error: `The service answered ${status} to POST /webhooks: it may or may not have applied this change, and it was not sent again`,
			httpCode: String(status),
			itemIndex: 0,
			writeOutcome: 'unknown',
		});
		expect(run.items[1].json).toMatchObject({ name: 'second' });
		expect(sandbox.control.webhooks().map((webhook) => webhook.name)).toEqual(['second']);
		const posts = sandbox.control.requests().filter((request) => request.method === 'POST');
		expect(posts.map((request) => request.status)).toEqual([status, 201]);
	},
);
