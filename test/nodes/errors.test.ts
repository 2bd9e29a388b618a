/** Errors a user sees: service statuses, bad input caught before any call, Continue On Fail, and no key anywhere. */
import type { INodeParameters } from 'n8n-workflow';

import { descriptionOf, everythingVisible, expectNoSecret, runNode } from './support';
import type { NodeRun } from './support';
import { closedUrl } from '../support/closed-port';
import { useSandbox } from '../support/sandbox';

// A key with characters that URL encoding changes, so both forms can be looked for.
const SPECIAL_KEY = 'k3y+with/slash=and&amp;%25pct_0123456789ABCDEF';
const WRONG_KEY = 'wr0ng+key/with=special&chars%20_0123456789abc';

const { sandbox, connection } = useSandbox({ rateLimit: false, apiKeys: [SPECIAL_KEY], dataset: { leads: 10, prospections: 5 } }, SPECIAL_KEY);


/** Routine Add Lead of the sandbox's first lead to its first routine: a write the service answers with no record. */
const addLead = () => ({
	resource: 'routine',
	operation: 'addLead',
	routineId: { __rl: true, mode: 'id', value: sandbox.control.routines()[0].id },
	leadId: sandbox.control.leads()[0].id,
});

async function serviceMessageFor(path: string): Promise<string> {
	const response = await fetch(
		`${sandbox.url}/api/v1${path}${path.includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(SPECIAL_KEY)}`,
	);
	return ((await response.json()) as { message: string }).message;
}

describe('service errors', () => {
	it('400 keeps the service message intact and lists every field with its reason', async () => {
		const run = await runNode(
			{
				resource: 'lead',
				operation: 'create',
				name: 'Curto',
				phone: '123-4567',
				additionalFields: { mobile: '765 4321' },
			},
			connection,
		);
		expect(run.error?.constructor.name).toBe('NodeApiError');
		expect(run.error?.message).toBe(
			'Dados inválidos: phones[0].value: Telefone inválido: informe ao menos 8 dígitos. (e mais 1 erro)',
		);
		expect(descriptionOf(run.error)).toContain(
			'phones[0].value: Telefone inválido: informe ao menos 8 dígitos.',
		);
		expect(descriptionOf(run.error)).toContain(
			'mobiles[0].value: Telefone inválido: informe ao menos 8 dígitos.',
		);
		expect(descriptionOf(run.error)).toContain('item 0');
		expectNoSecret(run, SPECIAL_KEY);
	});

	it('400 on a list names the query parameter', async () => {
		const run = await runNode(
			{ resource: 'lead', operation: 'getMany', returnAll: true, options: { orderBy: 'shoeSize' } },
			connection,
		);
		const fromService = await serviceMessageFor('/leads?orderBy=shoeSize');
		expect(run.error?.message).toBe(fromService);
		expect(descriptionOf(run.error)).toMatch(/^orderBy: Campo de ordenação inválido/);
	});

	it('401 tells the user to check the API key in the credential, without showing either key', async () => {
		const run = await runNode(
			{ resource: 'customField', operation: 'getMany', returnAll: true },
			{ baseUrl: sandbox.url, apiKey: WRONG_KEY },
		);
		expect(run.error?.message).toMatch(
			/API key was refused \(401\).*check the API key in the Prospecting API credential/,
		);
		expect(descriptionOf(run.error)).toContain('Chave de API inválida.');
		expectNoSecret(run, WRONG_KEY);
		expectNoSecret(run, SPECIAL_KEY);
	});

	it('404 names the missing record', async () => {
		const routine = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: 'rot_missing' },
				leadId: sandbox.control.leads()[0].id,
			},
			connection,
		);
		expect(routine.error?.message).toMatch(/Routine "rot_missing".*was not found \(404\)/);
		expect(descriptionOf(routine.error)).toContain('Rotina não encontrada.');

		const prospection = await runNode(
			{
				resource: 'prospection',
				operation: 'getActivities',
				prospectionId: 'pro_missing',
				returnAll: true,
			},
			connection,
		);
		expect(prospection.error?.message).toBe('Prospection "pro_missing" was not found (404)');
		expect(descriptionOf(prospection.error)).toContain('Prospecção não encontrada.');
		expectNoSecret(prospection, SPECIAL_KEY);
	});

	it('an unreachable service is reported clearly, without the key', async () => {
		const run = await runNode(
			{ resource: 'webhook', operation: 'create', name: 'x', url: 'https://example.com/h' },
			{ baseUrl: await closedUrl(), apiKey: SPECIAL_KEY },
		);
		expect(run.error?.message).toMatch(
			/Could not reach the service( after \d+ attempts)?: the service refused the connection/,
		);
		expectNoSecret(run, SPECIAL_KEY);
	});
});

describe('statuses and bodies the service is not documented to give', () => {
	const itemOf = (run: NodeRun) => run.items[0].json;

	it("another 4xx is told in the service's words with each field's reason, and the write is marked refused", async () => {
		const body = { message: 'Lead já está nesta rotina.', errors: [{ field: 'leadId', message: 'duplicado' }] };
		sandbox.control.injectFault({ kind: 'status', status: 409, body: JSON.stringify(body), count: 1, methods: ['POST'] });
		const item = itemOf(await runNode(addLead(), { ...connection, continueOnFail: true }));
		expect(item.error).toBe('Lead já está nesta rotina.');
		expect(String(item.description).split('\n')).toEqual(['leadId: duplicado', expect.stringMatching(/^\(item 0, POST \/routines\/\S+\/lead\)$/)]);
		expect(item.writeOutcome).toBe('refused');
	});

	it('another 4xx without a message names its status, and quotes nothing of an HTML page', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 403, body: '<html><body>Proibido: 10.0.3.7</body></html>', contentType: 'text/html', count: 1 });
		const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, connection);
		expect(run.error?.message).toBe('The service rejected the request (403)');
		expect(descriptionOf(run.error).split('\n')).toEqual(['The answer was an HTML page (not shown).', '(item 0, GET /custom-fields)']);
	});

	it('a 400 from something in front of the service (an HTML page) is told as invalid, naming the page without quoting it', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 400, body: '<html><body>Bad Request 10.0.3.7</body></html>', contentType: 'text/html', count: 1 });
		const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, connection);
		expect(run.error?.message).toBe('The service rejected the request as invalid (400)');
		expect(descriptionOf(run.error).split('\n')).toEqual(['The answer was an HTML page (not shown).', '(item 0, GET /custom-fields)']);
	});

	it('field errors of unexpected shapes are still listed: a reason without a field, a reason that is not text, bare text', async () => {
		const body = {
			message: 'Dados inválidos',
			errors: [{ message: 'informe um contato' }, { field: '', message: 'sem campo' }, { field: 'phones', message: { min: 8 } }, { field: 'name' }, 'texto solto', 7],
		};
		sandbox.control.injectFault({ kind: 'status', status: 400, body: JSON.stringify(body), count: 1 });
		const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, connection);
		expect(run.error?.message).toBe('Dados inválidos');
		expect(descriptionOf(run.error).split('\n')).toEqual(['informe um contato', 'sem campo', 'phones: {"min":8}', 'name: ""', 'texto solto', '7', '(item 0, GET /custom-fields)']);
	});

	it('a 400 whose errors are not a list lists no field, and still names the call', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 400, body: JSON.stringify({ message: 'Dados inválidos', errors: 'phones' }), count: 1 });
		const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, connection);
		expect(run.error?.message).toBe('Dados inválidos');
		expect(descriptionOf(run.error)).toBe('(item 0, GET /custom-fields)');
	});
});

describe('what an error quotes of an answer', () => {
	// What an instance metadata endpoint answers: a listing in plain text, credentials in JSON.
	const metadataListing = 'ami-id\nhostname\niam/security-credentials/prospecting-role\ninstance-id';
	const metadataCredentials = JSON.stringify({
		Code: 'Success',
		AccessKeyId: 'ASIAEXAMPLEKEYID0000',
		SecretAccessKey: 'wJalrXUtnFEMIexampleSecretAccessKey',
		Token: 'IQoJb3JpZ2luX2VjEXAMPLETOKEN',
	});

	it.each([
		['a plain-text listing', metadataListing, 'text/plain'],
		['a JSON body of credentials', metadataCredentials, 'application/json'],
	])('a metadata-like answer (%s) never reaches the error, its details or the log', async (_what, body, contentType) => {
		sandbox.control.injectFault({ kind: 'status', status: 500, body, contentType, count: 1, methods: ['POST'] });
		const run = await runNode(addLead(), connection);

		expect(run.error?.message).toMatch(/^The service answered 500 to POST \/routines\/.+\/lead: it may or may not have applied/);
		const visible = everythingVisible(run);
		for (const secretPart of ['iam/security-credentials', 'ASIAEXAMPLEKEYID0000', 'wJalrXUtnFEMIexampleSecretAccessKey', 'IQoJb3JpZ2luX2VjEXAMPLETOKEN']) {
			expect(visible).not.toContain(secretPart);
		}
	});

	it('an HTML error page is named, never quoted', async () => {
		const page = '<html><head><title>502 Bad Gateway</title></head><body>nginx internal 10.0.3.7</body></html>';
		sandbox.control.injectFault({ kind: 'status', status: 502, body: page, contentType: 'text/html', count: 5 });
		const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, connection);

		expect(run.error?.message).toBe('The service failed to process the request (502) after 5 attempts');
		expect(descriptionOf(run.error)).toContain('The answer was an HTML page (not shown).');
		expect(everythingVisible(run)).not.toMatch(/nginx|10\.0\.3\.7|<html/);
	});

	it('a read answered 200 with an HTML page says so without quoting the page', async () => {
		sandbox.control.injectFault({ kind: 'malformed', count: 5, body: '<html><body>Entrar: usuário e senha</body></html>', contentType: 'text/html' });
		const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, connection);

		expect(run.error?.message).toBe('The service answered with something that is not JSON (5 attempts)');
		expect(descriptionOf(run.error)).toMatch(/^The answer was an HTML page\. Check the base URL in the credential/);
		expect(everythingVisible(run)).not.toMatch(/Entrar|usuário/);
		expect(run.logs.filter((line) => line.includes('retry'))).toEqual(
			[[1, 300], [2, 600], [3, 1200], [4, 2400]].map(([retry, ms]) => `[debug] Prospecting: GET /custom-fields failed (answer was not JSON); retry ${retry} in ${ms} ms`),
		);
	});

	it('a read answered 200 with JSON null is retried, never read as an empty list, then fails', async () => {
		sandbox.control.injectFault({ kind: 'malformed', count: 5, body: 'null', contentType: 'application/json' });
		const run = await runNode({ resource: 'customField', operation: 'getMany', returnAll: true }, connection);

		expect(run.error?.message).toBe('The service answered with something that is not JSON (5 attempts)');
		expect(run.items).toEqual([]);
		expect(run.logs.filter((line) => line.includes('retry'))).toHaveLength(4);
	});

	it('a line of plain text is quoted up to 200 characters, a longer one only named', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 503, body: 'x'.repeat(200), contentType: 'text/plain', count: 1, methods: ['POST'] });
		expect(descriptionOf((await runNode(addLead(), connection)).error)).toMatch(new RegExp(`^x{200}$`, 'm'));

		sandbox.control.injectFault({ kind: 'status', status: 503, body: 'y'.repeat(201), contentType: 'text/plain', count: 1, methods: ['POST'] });
		const long = await runNode(addLead(), connection);
		expect(descriptionOf(long.error)).toMatch(/^The answer was an answer of type text\/plain \(not shown\)\.$/m);
		expect(everythingVisible(long)).not.toContain('yyyy');
	});

	it("the service's JSON message is quoted up to 500 characters, a list of messages joined", async () => {
		sandbox.control.injectFault({ kind: 'status', status: 500, body: JSON.stringify({ message: 'm'.repeat(600) }), count: 1, methods: ['POST'] });
		const long = await runNode(addLead(), connection);
		expect(descriptionOf(long.error)).toMatch(new RegExp(`^m{500}…$`, 'm'));

		sandbox.control.injectFault({ kind: 'status', status: 500, body: JSON.stringify({ message: ['Campo a inválido', 'Campo b ausente'] }), count: 1, methods: ['POST'] });
		expect(descriptionOf((await runNode(addLead(), connection)).error)).toMatch(/^Campo a inválido; Campo b ausente$/m);
	});

	it('an answer without a type or with an empty body is named as such', async () => {
		sandbox.control.injectFault({ kind: 'malformed', body: 'ok', contentType: '', count: 1, methods: ['POST'] });
		const untyped = await runNode(addLead(), connection);
		expect(untyped.error?.message).toMatch(/^The service answered 200 to POST \/routines\/.+\/lead with an answer that is not JSON: it may or may not/);

		sandbox.control.injectFault({ kind: 'malformed', body: '', status: 201, count: 1, methods: ['POST'] });
		const empty = await runNode({ resource: 'webhook', operation: 'create', name: 'Vazio', url: 'https://example.com/vazio' }, connection);
		expect(empty.error?.message).toBe(
			'The service answered 201 to POST /webhooks without the created record: it may have been created, and it was not sent again',
		);
		expect(descriptionOf(empty.error)).toMatch(/^The answer was an empty answer, not the created record\.$/m);
	});

	it("an error's details keep only the message and the field errors of a JSON answer", async () => {
		const body = {
			message: 'Dados inválidos',
			errors: [{ field: 'leadId', message: 'obrigatório', hint: 'x' }, 'texto solto'],
			AccessKeyId: 'ASIAEXAMPLEKEYID0000',
		};
		sandbox.control.injectFault({ kind: 'status', status: 500, body: JSON.stringify(body), count: 1, methods: ['POST'] });
		const run = await runNode(addLead(), connection);
		const details = (run.error as { errorResponse?: { body?: unknown } } | undefined)?.errorResponse;

		expect(details?.body).toEqual({
			message: 'Dados inválidos',
			errors: [{ field: 'leadId', message: 'obrigatório' }, 'texto solto'],
		});
		expect(everythingVisible(run)).not.toContain('ASIAEXAMPLEKEYID0000');
	});

	it('a Content-Type is read without case or parameters, and plain text of spaces only is not quoted', async () => {
		sandbox.control.injectFault({ kind: 'status', status: 503, body: 'Em manutenção', contentType: ' TEXT/Plain ; charset=utf-8', count: 1, methods: ['POST'] });
		expect(descriptionOf((await runNode(addLead(), connection)).error)).toMatch(/^Em manutenção$/m);

		sandbox.control.injectFault({ kind: 'status', status: 503, body: '   ', contentType: 'text/plain', count: 1, methods: ['POST'] });
		expect(descriptionOf((await runNode(addLead(), connection)).error)).toMatch(/^The answer was an answer of type text\/plain \(not shown\)\.$/m);
	});

	it("the service's JSON message and one short line of plain text are quoted", async () => {
		sandbox.control.injectFault({ kind: 'status', status: 503, body: 'Manutenção programada até 03:00', contentType: 'text/plain; charset=utf-8', count: 1, methods: ['POST'] });
		const plain = await runNode(addLead(), connection);
		expect(descriptionOf(plain.error)).toContain('Manutenção programada até 03:00');

		sandbox.control.injectFault({ kind: 'status', status: 500, count: 1, methods: ['POST'] });
		const json = await runNode(addLead(), connection);
		expect(descriptionOf(json.error)).toContain('Erro interno do servidor.');
	});
});

describe('bad input is refused before any call, naming the item and the field', () => {
	const cases: Array<[string, INodeParameters, RegExp]> = [
		[
			'a lead without any contact',
			{ resource: 'lead', operation: 'create', name: 'Sem contato' },
			/email \/ phone \/ mobile: a lead needs at least one contact.*\(item 0\)/,
		],
		[
			'an e-mail without @',
			{ resource: 'lead', operation: 'create', email: 'maria.example.com' },
			/^email: "maria.example.com" is not a valid email address \(item 0\)/,
		],
		[
			'a phone with letters',
			{ resource: 'lead', operation: 'create', phone: 'call me' },
			/^phone: .* is not a valid phone number/,
		],
		[
			'an e-mail of 255 characters',
			{ resource: 'lead', operation: 'create', email: `${'a'.repeat(243)}@example.com` },
			/^email: .* is not a valid email address \(item 0\)/,
		],
		[
			'a phone of 5 digits',
			{ resource: 'lead', operation: 'create', phone: '123-45' },
			/^phone: "123-45" is not a valid phone number/,
		],
		[
			'a phone of 21 digits',
			{ resource: 'lead', operation: 'create', phone: '1'.repeat(21) },
			/^phone: "1{21}" is not a valid phone number/,
		],
		[
			'a phone of 41 characters',
			{ resource: 'lead', operation: 'create', phone: `123456${' '.repeat(34)}7` },
			/^phone: .* is not a valid phone number/,
		],
		[
			'a webhook ID of ".."',
			{ resource: 'webhook', operation: 'delete', webhookId: '..' },
			/^webhookId: "\.\." is not a valid ID \(item 0\)/,
		],
		[
			'a blank prospection ID',
			{
				resource: 'prospection',
				operation: 'getActivities',
				prospectionId: '   ',
				returnAll: true,
			},
			/^prospectionId: a value is required \(item 0\)/,
		],
		[
			'an unknown status from an expression',
			{
				resource: 'prospection',
				operation: 'getMany',
				returnAll: true,
				filters: { status: '={{ "WONN" }}' },
			},
			/^filters.status: "WONN" is not one of IN_PROGRESS, FROZEN, WON, LOST/,
		],
		[
			'a limit of zero from an expression',
			{ resource: 'lead', operation: 'getMany', returnAll: false, limit: '={{ 0 }}' },
			/^limit: expected a whole number of at least 1/,
		],
		[
			'a 5000-character ID',
			{ resource: 'webhook', operation: 'delete', webhookId: 'x'.repeat(5000) },
			/^webhookId: longer than 1000 characters; expected an ID \(item 0\)/,
		],
		[
			'a list where one ID is expected',
			{
				resource: 'prospection',
				operation: 'getActivities',
				prospectionId: '={{ ["a", "b"] }}',
				returnAll: true,
			},
			/^prospectionId: expected one ID, got a list/,
		],
		[
			'a blank webhook name',
			{ resource: 'webhook', operation: 'create', name: '   ', url: 'https://example.com/h' },
			/^name: a value is required \(item 0\)/,
		],
		[
			'a webhook URL that is not http',
			{ resource: 'webhook', operation: 'create', name: 'x', url: 'ftp://example.com' },
			/^url: "ftp:\/\/example.com" is not an http/,
		],
		[
			'a lead ID that is an object',
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: 'rot_1' },
				leadId: '={{ {a: 1} }}',
			},
			/^leadId: expected text, got object/,
		],
	];

	it.each(cases)('%s', async (_name, parameters, message) => {
		const run = await runNode(parameters, connection);
		expect(run.error?.constructor.name).toBe('NodeOperationError');
		expect(run.error?.message).toMatch(message);
		expect(sandbox.control.requests()).toHaveLength(0);
	});

	it('IDs with slashes stay inside one path segment', async () => {
		const run = await runNode(
			{ resource: 'webhook', operation: 'delete', webhookId: '../leads/x' },
			connection,
		);
		expect(run.error?.message).toBe('Webhook "../leads/x" was not found (404)');
		const [request] = sandbox.control.requests();
		expect(request.method).toBe('DELETE');
		expect(request.path).toMatch(/^\/api\/v1\/webhooks\/\.\.%2Fleads%2Fx$/i);
	});
});

describe('Continue On Fail', () => {
	it('gives an error item paired with the failing input and goes on with the others', async () => {
		const leads = sandbox.control.leads();
		const routine = sandbox.control.routines()[0];
		const run = await runNode(
			{
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: '={{ $json.routineId }}' },
				leadId: '={{ $json.leadId }}',
			},
			{
				...connection,
				continueOnFail: true,
				inputItems: [
					{ routineId: routine.id, leadId: leads[0].id },
					{ routineId: 'rot_missing', leadId: leads[1].id },
					{ routineId: routine.id, leadId: '' },
					{ routineId: routine.id, leadId: leads[2].id },
				],
			},
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(4);
		expect(run.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(run.items[0].json.error).toBeUndefined();
		expect(run.items[1].json).toMatchObject({ httpCode: '404', itemIndex: 1 });
		expect(String(run.items[1].json.error)).toMatch(/Routine "rot_missing"/);
		expect(run.items[2].json).toMatchObject({
			error: 'leadId: a value is required (item 2)',
			itemIndex: 2,
		});
		expect(run.items[3].json.error).toBeUndefined();
		expect(sandbox.control.leads().find((lead) => lead.id === leads[2].id)?.routineIds).toContain(
			routine.id,
		);
		expectNoSecret(run, SPECIAL_KEY);
	});
});
