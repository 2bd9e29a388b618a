import { testCredential } from '../../dev/harness';
import { startRecordingServer } from './fixtures/recording-server';
import type { RecordingServer } from './fixtures/recording-server';
import { closedUrl } from '../support/closed-port';

const GOOD_KEY = 'credential-test-good-key-0123456789abcdef';

describe('testCredential', () => {
	let server: RecordingServer;

	beforeAll(async () => {
		server = await startRecordingServer((request) => {
			if (request.url.pathname === '/broken/api/v1/custom-fields') return { status: 503, body: { message: 'Indisponível' } };
			if (request.url.searchParams.get('apiKey') !== GOOD_KEY) return { status: 401, body: { message: 'Chave inválida' } };
			return { status: 200, body: { data: [], meta: { total: 0, page: 1, totalPages: 0, limit: 1, count: 0 } } };
		});
	});

	afterAll(async () => await server.stop());

	beforeEach(() => server.requests.splice(0));

	it("sends the credential's test request with the key and reports success", async () => {
		const result = await testCredential({ baseUrl: `${server.url}/api/v1/`, apiKey: GOOD_KEY });

		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].url.pathname).toBe('/api/v1/custom-fields');
		expect(server.requests[0].url.searchParams.get('apiKey')).toBe(GOOD_KEY);
	});

	it("applies the credential's 401 rule to a refused key", async () => {
		const result = await testCredential({ baseUrl: server.url, apiKey: 'a-wrong-key' });

		expect(result.status).toBe('Error');
		expect(result.message).toBe('The API key was refused (401). Check the API key in this credential.');
	});

	it('reports other failures as n8n does', async () => {
		const unavailable = await testCredential({ baseUrl: `${server.url}/broken`, apiKey: GOOD_KEY });
		const unreachable = await testCredential({ baseUrl: await closedUrl(), apiKey: GOOD_KEY });

		expect(unavailable).toMatchObject({ status: 'Error', message: 'Service Unavailable' });
		expect(unreachable).toMatchObject({ status: 'Error', message: 'ECONNREFUSED' });
	});
});
