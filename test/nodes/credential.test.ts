/** The Prospecting API credential: its test in the credential dialog, and base URL forms the node accepts. */
import { ProspectingApi } from '../../credentials/ProspectingApi.credentials';
import { findSecret, testCredential } from '../../dev/harness';
import { runNode } from './support';
import { useSandbox } from '../support/sandbox';

const { sandbox, connection } = useSandbox({ rateLimit: false, dataset: { customFields: 2 } });

it('accepts a working key with one light read of custom fields', async () => {
	const result = await testCredential(connection);
	expect(result.status).toBe('OK');
	const [request] = sandbox.control.requests();
	expect(request.path).toBe('/api/v1/custom-fields');
});

it('reports a refused key clearly, without the key', async () => {
	const wrong = 'not-the-key+/=&0123456789012345678901234';
	const result = await testCredential({ baseUrl: sandbox.url, apiKey: wrong });
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(/API key was refused \(401\)/);
	expect(findSecret(wrong, { result })).toEqual([]);
});

it('reports a base URL that does not lead to the service', async () => {
	const result = await testCredential({ baseUrl: `${sandbox.url}/somewhere-else`, apiKey: sandbox.apiKey });
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(/\(404\)\. Check the base URL/);
});

it.each(['/', '/api/v1', '/api/v1/'])(
	'the node tolerates a base URL ending in "%s"',
	async (suffix) => {
		const credentialResult = await testCredential({
			baseUrl: `${sandbox.url}${suffix}`,
			apiKey: sandbox.apiKey,
		});
		expect(credentialResult.status).toBe('OK');
		const run = await runNode(
			{ resource: 'customField', operation: 'getMany', returnAll: true },
			{ baseUrl: `${sandbox.url}${suffix}`, apiKey: sandbox.apiKey },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
	},
);

it('refuses a base URL without http(s) before any call', async () => {
	const run = await runNode(
		{ resource: 'customField', operation: 'getMany', returnAll: true },
		{ baseUrl: sandbox.url.replace('http://', ''), apiKey: sandbox.apiKey },
	);
	expect(run.error?.message).toMatch(
		/base URL in the Prospecting API credential must start with http/,
	);
	expect(sandbox.control.requests()).toHaveLength(0);
});

it("warns in the Base URL's description about plain http and names n8n's SSRF protection", () => {
	const baseUrl = new ProspectingApi().properties.find((property) => property.name === 'baseUrl');
	expect(baseUrl?.description).toMatch(/Use https:\/\/: over plain http:\/\/ the API key travels readable/);
	expect(baseUrl?.description).toMatch(/Redirects are not followed, and link-local and cloud metadata addresses are refused/);
	expect(baseUrl?.description).toContain('N8N_SSRF_PROTECTION_ENABLED');
});
