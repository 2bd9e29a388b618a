/**
 * No surprises from the URL: a redirect is never followed, by a read, a write or the credential test (the key would
 * go to the address it names, and a POST would turn into a GET of some page), and a Base URL naming a link-local or
 * cloud metadata address is refused before anything is sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startWebhookReceiver, testCredential, type WebhookReceiver } from '../../dev/harness';
import { everythingVisible, expectNoSecret, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { leads: 10, prospections: 5, customFields: 2 } });

const redirectedWrites: Array<[string, 301 | 302 | 307 | 308, () => INodeParameters]> = [
	['Lead Create', 301, () => ({ resource: 'lead', operation: 'create', email: 'joana.moved@example.com' })],
	[
		'Routine Add Lead',
		302,
		() => ({
			resource: 'routine',
			operation: 'addLead',
			routineId: { __rl: true, mode: 'id', value: sandbox.control.routines()[0].id },
			leadId: sandbox.control.leads()[0].id,
		}),
	],
	['Webhook Create', 307, () => ({ resource: 'webhook', operation: 'create', name: 'Ganhos', url: 'https://example.com/ganhos' })],
	['Webhook Delete', 308, () => ({ resource: 'webhook', operation: 'delete', webhookId: 'whk_moved' })],
];

describe('redirects are never followed', () => {
	it.each(redirectedWrites)(
		'%s answered %i fails as refused, names the Location without the key, and sends nothing to it',
		async (_operation, status, parameters) => {
			// The Location leads back to the service itself, with the key: followed, the write would read as done.
			const location = `${sandbox.url}/api/v1/leads?apiKey=${sandbox.apiKey}`;
			sandbox.control.injectFault({ kind: 'redirect', status, location, count: 1, methods: ['POST', 'DELETE'] });
			const run = await runNode(parameters(), { ...connection, continueOnFail: true });
			const item = run.items[0].json;

			expect(item.writeOutcome).toBe('refused');
			expect(item.error).toMatch(
				new RegExp(`^(POST|DELETE) /\\S+ was redirected \\(${status}\\), and redirects are not followed: Location ${sandbox.url}/api/v1/leads\\?apiKey=\\*\\*\\*$`),
			);
			expect(String(item.description).split('\n')).toEqual([
				'The base URL in the Prospecting API credential answers with a redirect, so nothing was sent to the new address.',
				'If the service has moved, put its new address in the Base URL of the credential.',
				expect.stringMatching(/^\(item 0, (POST|DELETE) \/\S+\)$/),
			]);
			expect(item.id).toBeUndefined();
			const writes = sandbox.control.requests().filter((request) => request.kind === 'write');
			expect(writes.map((request) => request.status)).toEqual([status]);
			expect(sandbox.control.requests().filter((request) => request.path === '/api/v1/leads' && request.method === 'GET')).toHaveLength(0);
			expectNoSecret(run, sandbox.apiKey);
		},
	);

	it('a read answered 301 is neither followed nor retried, and the error names the Location', async () => {
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: 'https://moved.example.com/api/v1/leads', count: 5 });
		const run = await runNode({ resource: 'lead', operation: 'getMany', returnAll: true }, connection);

		expect(run.error?.message).toBe(
			'GET /leads was redirected (301), and redirects are not followed: Location https://moved.example.com/api/v1/leads',
		);
		expect(sandbox.control.requests()).toHaveLength(1);
	});

	it('a redirect without a Location says so, and a long Location is named up to 200 characters', async () => {
		sandbox.control.injectFault({ kind: 'redirect', status: 302, count: 1 });
		const bare = await runNode({ resource: 'lead', operation: 'getMany', returnAll: true }, connection);
		expect(bare.error?.message).toBe('GET /leads was redirected (302), and redirects are not followed: Location no Location given');

		const far = `https://moved.example.com/${'caminho/'.repeat(40)}`;
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: `  ${far}  `, count: 1 });
		const long = await runNode({ resource: 'lead', operation: 'getMany', returnAll: true }, connection);
		expect(long.error?.message).toBe(`GET /leads was redirected (301), and redirects are not followed: Location ${far.slice(0, 200)}…`);

		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: far.slice(0, 200), count: 1 });
		const exact = await runNode({ resource: 'lead', operation: 'getMany', returnAll: true }, connection);
		expect(exact.error?.message).toBe(`GET /leads was redirected (301), and redirects are not followed: Location ${far.slice(0, 200)}`);
	});

	it('the credential test does not follow a redirect, even to a working address, and says why', async () => {
		const location = `${sandbox.url}/api/v1/custom-fields?apiKey=${sandbox.apiKey}`;
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location, count: 1 });
		const result = await testCredential(connection);

		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'The base URL answers with a redirect (301), which is not followed, so the key is not sent to another address. If the service has moved, put its new address (https://) in the Base URL.',
		);
		expect(sandbox.control.requests().map((request) => request.status)).toEqual([301]);
	});
});

describe('the trigger follows no redirect either', () => {
	let receiver: WebhookReceiver;
	beforeAll(async () => {
		receiver = await startWebhookReceiver();
	});
	afterAll(async () => await receiver?.stop());

	it('an activation whose webhook create is answered 301 fails naming the Location, and nothing is registered or kept', async () => {
		const workflow = receiver.createWorkflow({ credentials: { prospectingApi: { baseUrl: sandbox.url, apiKey: sandbox.apiKey } } });
		const location = `${sandbox.url}/api/v1/webhooks?apiKey=${sandbox.apiKey}`;
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location, count: 1, methods: ['POST'] });
		const error = await workflow.activate().then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);

		expect(error?.message).toMatch(/POST \/webhooks was redirected \(301\), and redirects are not followed: Location \S+apiKey=\*\*\*/);
		expect(sandbox.control.webhooks()).toHaveLength(0);
		expect(workflow.nodeStaticData.webhooks).toEqual({});
		expect(sandbox.control.requests().filter((request) => request.method === 'POST').map((request) => request.status)).toEqual([301]);
		expect(JSON.stringify([error?.message, (error as { description?: unknown })?.description, workflow.logs])).not.toContain(sandbox.apiKey);
	});
});

describe('link-local and cloud metadata hosts', () => {
	it.each([
		'http://169.254.169.254',
		'http://169.254.170.2/v2',
		'http://2852039166',
		'http://[fe80::a9fe:a9fe]',
		'http://[::ffff:169.254.169.254]',
		'http://[fd00:ec2::254]',
		'http://metadata.google.internal.',
		'http://METADATA.GOOG',
		'http://metadata',
		'http://instance-data',
		'http://instance-data.ec2.internal',
		'http://metadata.azure.internal',
		'http://100.100.100.200',
		'http://192.0.0.192',
		'http://[febf::1]',
		'http://[::ffff:100.100.100.200]',
	])('a Base URL of %s is refused before anything is sent, naming the credential field', async (baseUrl) => {
		const run = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: 'rot_1' },
				leadId: 'lead_1',
			},
			{ baseUrl, apiKey: sandbox.apiKey, continueOnFail: true },
		);
		const item = run.items[0].json;

		expect(item.writeOutcome).toBe('notSent');
		expect(item.error).toMatch(
			/^The Base URL in the Prospecting API credential names \S+, a link-local or cloud metadata address: nothing was sent$/,
		);
		expect(everythingVisible(run)).not.toMatch(/refused the connection|could not be resolved|timed out/);
	});

	it('a name near them but none of them is not refused: the call is made', async () => {
		// .invalid never resolves (RFC 2606): the call is made (and, never having reached the service, once more) and
		// fails on the name, not on the rule.
		const run = await runNode(
			{ resource: 'webhook', operation: 'delete', webhookId: 'whk_1' },
			{ baseUrl: 'http://metadata.google.invalid', apiKey: sandbox.apiKey, continueOnFail: true },
		);
		expect(run.items[0].json.error).toMatch(/^Could not reach the service after 2 attempts: the host name of the base URL could not be resolved$/);
	});

	it('a read with such a Base URL is refused the same way', async () => {
		const run = await runNode(
			{ resource: 'customField', operation: 'getMany', returnAll: true },
			{ baseUrl: 'http://169.254.169.254/latest/meta-data', apiKey: sandbox.apiKey },
		);
		expect(run.error?.message).toMatch(/^The Base URL in the Prospecting API credential names 169\.254\.169\.254/);
	});

	it('a loopback address stays allowed, also written inside IPv6: a service on this machine is reached', async () => {
		const mapped = sandbox.url.replace('127.0.0.1', '[::ffff:127.0.0.1]');
		for (const baseUrl of [sandbox.url, mapped]) {
			const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, { ...connection, baseUrl });
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(2);
		}
	});
});
