/**
 * What an error may repeat of an answer, and what a write's 2xx answer must be. Whatever answered may not be the
 * service: only its own words are quoted (a JSON `message` and field `errors`, or one short line of plain text),
 * anything else is named by its type; and a write's 2xx is its result only when it is empty or a JSON object
 * (for a create, one with an id).
 */
import type { INode } from 'n8n-workflow';

import { isCredentialFault } from '../../nodes/Prospecting/helpers/credentialFault';
import { errorFromNetwork } from '../../nodes/Prospecting/helpers/networkError';
import { errorFromRateLimit } from '../../nodes/Prospecting/helpers/rateLimitError';
import { errorFromStatus } from '../../nodes/Prospecting/helpers/statusError';
import { errorFromNotJson, errorFromWriteAnswer } from '../../nodes/Prospecting/helpers/unusableAnswerError';
import { describeAnswer, quotableDetails, quotableMessage } from '../../nodes/Prospecting/helpers/quotable';
import { writeAnswerProblem } from '../../nodes/Prospecting/helpers/writeAnswer';

/** The node an error names: these errors are built outside a run. */
const node = { id: '1', name: 'Prospecting', type: 'n8n-nodes-prospecting.prospecting', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

describe("the service's message an error quotes", () => {
	it("is a JSON answer's message, a list of messages joined, capped at 500 characters", () => {
		expect(quotableMessage({ message: 'Rotina não encontrada.' })).toBe('Rotina não encontrada.');
		expect(quotableMessage({ message: ['Campo a inválido', 'Campo b ausente'] })).toBe('Campo a inválido; Campo b ausente');
		expect(quotableMessage({ message: 'm'.repeat(500) })).toBe('m'.repeat(500));
		expect(quotableMessage({ message: 'm'.repeat(501) })).toBe(`${'m'.repeat(500)}…`);
		expect(quotableMessage({ message: ['a'.repeat(300), 'b'.repeat(300)] })).toBe(`${'a'.repeat(300)}; ${'b'.repeat(198)}…`);
	});

	it('is nothing for a JSON answer whose message is blank, missing, or not text', () => {
		for (const body of [{ message: '  ' }, {}, { message: 42 }, { message: ['texto', 7] }, { erro: 'x' }]) {
			expect(quotableMessage(body, 'application/json')).toBeUndefined();
		}
	});

	it('is one short line of plain text, trimmed, up to 200 characters; never another type, a list or a number', () => {
		expect(quotableMessage('  Em manutenção  ', 'text/plain')).toBe('Em manutenção');
		expect(quotableMessage('x'.repeat(200), 'text/plain')).toBe('x'.repeat(200));
		expect(quotableMessage('x'.repeat(201), 'text/plain')).toBeUndefined();
		expect(quotableMessage('linha 1\nlinha 2', 'text/plain')).toBeUndefined();
		expect(quotableMessage('linha 1\rlinha 2', 'text/plain')).toBeUndefined();
		expect(quotableMessage('   ', 'text/plain')).toBeUndefined();
		expect(quotableMessage('Em manutenção', 'text/html')).toBeUndefined();
		expect(quotableMessage('Em manutenção')).toBeUndefined();
		expect(quotableMessage(['Em manutenção'], 'text/plain')).toBeUndefined();
		expect(quotableMessage(503, 'text/plain')).toBeUndefined();
	});
});

describe("the details an error keeps of a JSON answer", () => {
	it('keep only the message and, of each field error, its field and message as text, each capped', () => {
		const body = {
			message: 'Dados inválidos',
			errors: [{ field: 'phones[0].value', message: 'curto', hint: 'x' }, { field: 7, message: { min: 8 } }, 'texto solto', 'y'.repeat(600)],
			AccessKeyId: 'ASIAEXAMPLE',
		};
		expect(quotableDetails(body)).toEqual({
			message: 'Dados inválidos',
			errors: [{ field: 'phones[0].value', message: 'curto' }, {}, 'texto solto', `${'y'.repeat(500)}…`],
		});
		expect(quotableDetails({ errors: [{ field: 'f'.repeat(501), message: 'g'.repeat(501) }] })).toEqual({
			errors: [{ field: `${'f'.repeat(500)}…`, message: `${'g'.repeat(500)}…` }],
		});
	});

	it('keep at most 50 field errors', () => {
		const errors = Array.from({ length: 51 }, (_, index) => ({ field: `f${index}`, message: 'inválido' }));
		const kept = quotableDetails({ errors })?.errors as unknown[];
		expect(kept).toHaveLength(50);
		expect(kept[49]).toEqual({ field: 'f49', message: 'inválido' });
	});

	it('are nothing for an answer that is not a JSON object, or holds neither', () => {
		for (const body of ['<html></html>', ['a'], null, undefined, 42, {}, { AccessKeyId: 'ASIAEXAMPLE' }, { errors: 'phones' }]) {
			expect(quotableDetails(body)).toBeUndefined();
		}
	});
});

describe('an answer that is not quoted is named', () => {
	it('by what it is: empty, a JSON list, an HTML page (by its type or its first character), or its type', () => {
		for (const empty of [undefined, null, '']) expect(describeAnswer(empty, 'text/html')).toBe('an empty answer');
		expect(describeAnswer(['a'], 'application/json')).toBe('a JSON list');
		expect(describeAnswer('Entrar', ' Text/HTML; charset=utf-8')).toBe('an HTML page');
		expect(describeAnswer('  <!doctype html>', 'text/plain')).toBe('an HTML page');
		expect(describeAnswer('3 < 5', 'text/plain')).toBe('an answer of type text/plain');
		expect(describeAnswer('%PDF-1.7', 'application/pdf')).toBe('an answer of type application/pdf');
		expect(describeAnswer('ok', `application/${'x'.repeat(100)}`)).toBe(`an answer of type application/${'x'.repeat(48)}…`);
		expect(describeAnswer('ok')).toBe('an answer that is not JSON');
		expect(describeAnswer('ok', 42)).toBe('an answer that is not JSON');
	});
});

describe("a write's 2xx answer", () => {
	it('is its result when empty or a JSON object; a list, a text or a number is not JSON', () => {
		for (const body of [undefined, null, '', '  \n', {}, { id: 'x' }]) expect(writeAnswerProblem(body)).toBeUndefined();
		for (const body of [[], [{ id: 'x' }], 'ok', 42, true]) expect(writeAnswerProblem(body)).toBe('notJson');
	});

	it("is a create's result only as a JSON object with an id, itself or under data", () => {
		const create = { record: 'required' as const, isWritten: () => true };
		for (const body of [{ id: 'lead_1' }, { id: 0 }, { data: { id: 'lead_1' } }, { data: [1], id: 'lead_1' }]) {
			expect(writeAnswerProblem(body, create)).toBeUndefined();
		}
		for (const body of [undefined, null, '', {}, { id: '  ' }, { id: null }, { id: Infinity }, { data: { name: 'x' }, id: 'lead_1' }]) {
			expect(writeAnswerProblem(body, create)).toBe('noRecord');
		}
		for (const body of [[{ id: 'lead_1' }], 'ok', 42]) expect(writeAnswerProblem(body, create)).toBe('notJson');
	});

	it('is not its result when the record it holds is another one than the one written, itself or under data', () => {
		const theOne = { record: 'optional' as const, isWritten: (record: Record<string, unknown>) => record.id === undefined || record.id === 'wh_1' };
		for (const body of [undefined, {}, { id: 'wh_1' }, { data: { id: 'wh_1' } }, { deleted: true }]) expect(writeAnswerProblem(body, theOne)).toBeUndefined();
		for (const body of [{ id: 'wh_2' }, { data: { id: 'wh_2' } }]) expect(writeAnswerProblem(body, theOne)).toBe('anotherRecord');
		expect(writeAnswerProblem({ id: 'wh_2' }, { ...theOne, record: 'required' })).toBe('anotherRecord');
	});
});

describe('an error for an answer with little in it', () => {

	it('a 400 whose JSON body is null is refused in the node\'s words, with no field reasons', () => {
		const error = errorFromStatus(node, { method: 'POST', endpoint: '/leads', itemIndex: 0, status: 400, body: null }, '', true);
		expect(error.message).toBe('The service rejected the request as invalid (400)');
		expect(error.description).toBe('(item 0, POST /leads)');
	});

	it('an empty answer adds no line, and one quoted in full is not also named as unshown', () => {
		for (const status of [400, 401, 404, 409, 500]) {
			for (const body of [undefined, null, '']) {
				const error = errorFromStatus(node, { method: 'GET', endpoint: '/leads', itemIndex: 0, status, body, contentType: 'text/plain' }, '', false);
				expect([status, error.description]).toEqual([status, '(item 0, GET /leads)']);
			}
		}
		// A JSON object without a message is the service's own answer, with nothing in it to repeat.
		for (const body of [{}, { erro: 'x' }]) {
			const error = errorFromStatus(node, { method: 'GET', endpoint: '/leads', itemIndex: 0, status: 500, body, contentType: 'application/json' }, '', false);
			expect(error.description).toBe('(item 0, GET /leads)');
		}
		for (const status of [401, 404, 500, 503]) {
			const quoted = errorFromStatus(node, { method: 'GET', endpoint: '/leads', itemIndex: 0, status, body: 'Em manutenção', contentType: 'text/plain' }, '', false);
			expect([status, quoted.description]).toEqual([status, 'Em manutenção\n(item 0, GET /leads)']);
		}
		const write = errorFromStatus(node, { method: 'POST', endpoint: '/leads', itemIndex: 0, status: 503, body: '' }, '', true);
		expect(write.description).toBe('The service may or may not have applied this change, so it was not sent again. (item 0, POST /leads)');
	});

	it("a read's 5xx is the service failing, and a 404 without a record's name names the path", () => {
		const failed = errorFromStatus(node, { method: 'GET', endpoint: '/leads', itemIndex: 0, status: 500, body: '' }, '', false);
		expect(failed.message).toBe('The service failed to process the request (500)');
		// A read is retried: the message counts the attempts when there was more than one.
		const counted = (attempts: number) =>
			errorFromStatus(node, { method: 'GET', endpoint: '/leads', itemIndex: 0, status: 503, body: '', attempts }, '', false).message;
		expect([counted(1), counted(5)]).toEqual([
			'The service failed to process the request (503)',
			'The service failed to process the request (503) after 5 attempts',
		]);
		const notJson = (attempts?: number) =>
			errorFromNotJson(node, { method: 'GET', endpoint: '/leads', attempts, body: '<p>', contentType: 'text/html' }, '').message;
		expect([notJson(), notJson(1), notJson(5)]).toEqual([
			'The service answered with something that is not JSON',
			'The service answered with something that is not JSON',
			'The service answered with something that is not JSON (5 attempts)',
		]);
		const missing = errorFromStatus(node, { method: 'GET', endpoint: '/leads/lead_x', itemIndex: 0, status: 404, body: '' }, '', false);
		expect(missing.message).toBe('The record at /leads/lead_x was not found (404)');
	});

	it('a redirect and a refused key are mended in the credential; another refusal or a failure is not', () => {
		const mendInCredential = (status: number) =>
			isCredentialFault(errorFromStatus(node, { method: 'GET', endpoint: '/leads', status, body: '' }, '', false));
		expect([300, 301, 308, 399, 401].map(mendInCredential)).toEqual([true, true, true, true, true]);
		expect([400, 403, 404, 429, 500].map(mendInCredential)).toEqual([false, false, false, false, false]);
	});

	it("a write's 2xx that is not its result says what came and that it may have been applied, with how to check", () => {
		const where = { method: 'POST', endpoint: '/routines/rt_1/leads', itemIndex: 0, status: 200 };
		const page = errorFromWriteAnswer(node, { ...where, body: '<html></html>', contentType: 'text/html', problem: 'notJson' });
		expect(page.message).toBe(
			'The service answered 200 to POST /routines/rt_1/leads with an HTML page: it may or may not have applied this change, and it was not sent again',
		);
		expect(String(page.description).split('\n')).toEqual([
			'Something in front of the service (a proxy, a maintenance page) may have answered in its place, or the service may have applied the change.',
			'Check whether it was applied before running this item again, and check the base URL in the credential. (item 0, POST /routines/rt_1/leads)',
		]);
		expect(page.httpCode).toBe('200');
		const created = { ...where, endpoint: '/leads', status: 201, problem: 'noRecord' as const };
		const answers = [{}, null, ''].map((body) => String(errorFromWriteAnswer(node, { ...created, body }).description).split('\n')[0]);
		expect(answers).toEqual([
			'The answer was a JSON object without an id, not the created record.',
			'The answer was an empty answer, not the created record.',
			'The answer was an empty answer, not the created record.',
		]);
		expect(errorFromWriteAnswer(node, { ...created, body: {} }).message).toBe(
			'The service answered 201 to POST /leads without the created record: it may have been created, and it was not sent again',
		);
	});

	it('a network code without words of its own is named in lower case; a call of no item names only the call', () => {
		const error = errorFromNetwork(node, { method: 'GET', endpoint: '/leads', code: 'EPROTO' }, '', false);
		expect(error.message).toMatch(/the connection failed \(eproto\)/);
		expect(error.message).not.toContain('EPROTO');
		expect(String(error.description)).toMatch(/\(GET \/leads\)$/);
		expect(String(error.description)).not.toContain('item');
	});
});

describe('an error for a rate limit that outlasts Max Rate Limit Wait', () => {
	const call = { method: 'GET', endpoint: '/leads', itemIndex: 0, waitedMs: 1200, maxWaitMs: 3000 };
	const lines = (failure: Partial<Parameters<typeof errorFromRateLimit>[1]>) =>
		String(errorFromRateLimit(node, { ...call, refusals: 0, ...failure }, '', false).description).split('\n');
	const raise = ' Raise "Max Rate Limit Wait" in the node options, or spread the calls over more time.';

	it('says how long it waited, how often it was refused, what the service asked and how much of the maximum was left', () => {
		const error = errorFromRateLimit(node, { ...call, refusals: 1, askedWaitMs: 5000, heldBy: 'Retry-After', body: { message: 'Muitas requisições.' } }, '', false);
		expect(error.message).toBe('Rate limit still reached after waiting 1.2 s in total (maximum 3 s)');
		expect(String(error.description).split('\n')).toEqual([
			`The service refused the request 1 time with 429 (too many requests) and asked to wait 5 s (Retry-After), more than the 1.8 s left of the maximum, so it was not sent again.${raise}`,
			'Service message: Muitas requisições.',
			'(item 0, GET /leads)',
		]);
		expect(lines({ refusals: 2, askedWaitMs: 4000, heldBy: 'X-RateLimit-Reset' })).toEqual([
			`The service refused the request 2 times with 429 (too many requests) and asked to wait 4 s (X-RateLimit-Reset), more than the 1.8 s left of the maximum, so it was not sent again.${raise}`,
			'(item 0, GET /leads)',
		]);
		expect(lines({ refusals: 3, askedWaitMs: 120_000, heldBy: 'doubling' })[0]).toBe(
			`The service refused the request 3 times with 429 (too many requests) and gave no wait (no Retry-After or X-RateLimit-Reset), so the key waits 120 s (a window, doubled with each such refusal), more than the 1.8 s left of the maximum, so it was not sent again.${raise}`,
		);
	});

	it("says when a call held back by the key's pace or an earlier refusal could go, and that it was not sent", () => {
		expect(lines({})[0]).toBe(
			`The rate limit of this key lets this call go only after the calls ahead of it, more than the 1.8 s left of the maximum, so it was not sent.${raise}`,
		);
		expect(lines({ askedWaitMs: 2500 })[0]).toBe(
			`The rate limit of this key lets this call go in 2.5 s at the earliest, more than the 1.8 s left of the maximum, so it was not sent.${raise}`,
		);
		expect(lines({ askedWaitMs: 2500, heldBy: 'Retry-After' })[0]).toBe(
			`An earlier call with this key was refused with 429 (too many requests) and the service asked to wait 2.5 s more (Retry-After), more than the 1.8 s left of the maximum, so this call was not sent.${raise}`,
		);
	});
});
