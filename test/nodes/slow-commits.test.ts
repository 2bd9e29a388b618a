/**
 * Lead Create against a slow service: one that creates the lead after the node gave up on the answer. However
 * the answer is lost (a timeout, a 504 from a gateway, a dropped connection), the node looks for the lead over
 * its search window, returns it when it shows, and otherwise ends the item saying the lead may exist; it never
 * sends the lead a second time on a guess.
 *
 * Scaling: in production the answer timeout is 60 s and the search window 180 s (3 ×); the service of the
 * report committed at 66 s, 6 s after the node gave up. Here the timeout is 1 s and the window 3 s (the same
 * 3 ×), and the service commits 2 s after the request arrives. The commit is placed at 2 × rather than 1.1 ×
 * because the first search comes a fixed 0.3 s after the node gave up (not scaled): 1 s after giving up, the
 * first search misses the lead as it did in the report (with room for a loaded machine's timer delays), and a
 * later search of the window finds it, which is the shape of the real case.
 */
import type { INode } from 'n8n-workflow';

import { errorFromNetwork } from '../../nodes/Prospecting/helpers/networkError';
import { isOutcomeUnknown, outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { errorFromStatus } from '../../nodes/Prospecting/helpers/statusError';
import { PROSPECTING_NODE_TYPE } from '../../dev/harness';
import { descriptionOf, expectNoSecret, runNode } from './support';
import { useSandbox } from '../support/sandbox';

const ANSWER_TIMEOUT_SECONDS = 1;
const SEARCH_WINDOW_SECONDS = 3;
const COMMIT_AFTER_MS = 2000;
/** Past the timeout and the whole window: no search can see the lead. */
const COMMIT_AFTER_WINDOW_MS = (ANSWER_TIMEOUT_SECONDS + SEARCH_WINDOW_SECONDS) * 1000 + 1500;
const scaled = { timeout: ANSWER_TIMEOUT_SECONDS, lostLeadSearch: SEARCH_WINDOW_SECONDS };

const { sandbox, connection } = useSandbox({ readLimit: 100_000, writeLimit: 100_000, dataset: { leads: 5 } });

const leadsWithEmail = (email: string) =>
	sandbox.control.leads().filter((lead) => lead.emails.some((item) => item.value === email));
const methods = () => sandbox.control.requests().map((request) => request.method);
const wait = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

const createLead = (email: string, options: Record<string, unknown> = {}) => ({
	resource: 'lead',
	operation: 'create',
	name: 'Joana Lenta',
	email,
	options: { ...scaled, ...options },
});

const slowCommit = (commitAfterMs = COMMIT_AFTER_MS) =>
	sandbox.control.injectFault({
		kind: 'slow-commit',
		commitAfterMs,
		count: 1,
		methods: ['POST'],
		pathPrefix: '/leads',
	});

describe('Lead Create, defaults', () => {
	it.each([1, 2])(
		'a lead the service commits after the answer timed out is found by a later search: one lead, the run succeeds (node version %i)',
		async (typeVersion) => {
			slowCommit();
			const email = `lenta.v${typeVersion}@example.com`;
			const run = await runNode(createLead(email), { ...connection, typeVersion });
			expect(run.error).toBeUndefined();
			const stored = leadsWithEmail(email);
			expect(stored).toHaveLength(1);
			expect(run.items).toHaveLength(1);
			expect(run.items[0].json.id).toBe(stored[0].id);
			// One send; the searches before the commit missed the lead (on a quiet machine the first one does), and
			// the look went on until the first search after the commit found it.
			expect(methods().filter((method) => method === 'POST')).toHaveLength(1);
			const searches = sandbox.control.requests().filter((request) => request.method === 'GET');
			const missed = searches.filter((search) => Date.parse(search.at) < Date.parse(String(stored[0].createdAt)));
			expect(searches).toHaveLength(missed.length + 1);
			expectNoSecret(run, sandbox.apiKey);
		},
	);

	it('a lead committed after the search window: the item says the lead may exist, and one lead exists once the service commits', async () => {
		slowCommit(COMMIT_AFTER_WINDOW_MS);
		const email = 'lenta.tarde@example.com';
		const started = Date.now();
		const run = await runNode(createLead(email), { ...connection, continueOnFail: true });
		expect(run.items[0].json.error).toBe(
			`The lead for ${email} may exist: the outcome of its create is unknown, and it was not sent again`,
		);
		const text = String(run.items[0].json.description);
		expect(text).toMatch(
			/^Tried: POST \/leads sent; its outcome is unknown \(The answer to POST \/leads was lost: the request timed out\)\.$/m,
		);
		expect(text).toMatch(/^\d+ searches over [\d.]+ s \(GET \/leads\?search=lenta\.tarde@example\.com\) found no lead/m);
		expect(text).not.toMatch(/safe to run/);
		expect(leadsWithEmail(email)).toHaveLength(0);
		await wait(Math.max(0, started + COMMIT_AFTER_WINDOW_MS + 300 - Date.now()));
		// On a loaded machine the service's own commit timer may run late: give it a few seconds more.
		for (let waited = 0; leadsWithEmail(email).length === 0 && waited < 5000; waited += 100) await wait(100);
		expect(leadsWithEmail(email)).toHaveLength(1);
		expect(methods().filter((method) => method === 'POST')).toHaveLength(1);
	}, 20_000);

	it('a 502 or 504 after the commit: the lead is found and returned, not sent again', async () => {
		for (const status of [504, 502] as const) {
			sandbox.control.injectFault({ kind: 'status', status, when: 'after-commit', count: 1, methods: ['POST'] });
			const email = `gateway.${status}@example.com`;
			const run = await runNode(createLead(email), connection);
			expect(run.error).toBeUndefined();
			expect(leadsWithEmail(email)).toHaveLength(1);
			expect(run.items[0].json.id).toBe(leadsWithEmail(email)[0].id);
		}
		expect(methods().filter((method) => method === 'POST')).toHaveLength(2);
	});

	it('a gateway 504 before a slow commit: a later search finds the lead, not sent again', async () => {
		sandbox.control.injectFault({
			kind: 'slow-commit',
			commitAfterMs: COMMIT_AFTER_MS,
			gatewayTimeoutMs: 200,
			count: 1,
			methods: ['POST'],
		});
		const run = await runNode(createLead('gateway.lento@example.com'), connection);
		expect(run.error).toBeUndefined();
		expect(leadsWithEmail('gateway.lento@example.com')).toHaveLength(1);
		expect(methods().filter((method) => method === 'POST')).toHaveLength(1);
	});

	it('a search that fails after a lost create: the item says the lead may exist and that the search failed, never safe to run again', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const run = await runNode(createLead('busca.falhou@example.com', { lostLeadSearch: 0 }), connection);
		expect(run.error?.message).toBe(
			'The lead for busca.falhou@example.com may exist: the outcome of its create is unknown, and it was not sent again',
		);
		expect(descriptionOf(run.error)).toMatch(
			/^1 search over 0 s \(GET \/leads\?search=busca\.falhou@example\.com\): every one failed \(The service failed to process the request \(503\) after 5 attempts\), so whether the lead exists is not known\.$/m,
		);
		expect(descriptionOf(run.error)).not.toMatch(/safe to run/);
		expect(methods().filter((method) => method === 'POST')).toHaveLength(1);
	}, 20_000);

	it('with Send Again If Not Found on, a failed search still sends nothing again', async () => {
		sandbox.control.injectFault({ kind: 'drop', when: 'before-commit', count: 1, methods: ['POST'] });
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 5, methods: ['GET'] });
		const run = await runNode(
			createLead('busca.optin@example.com', { lostLeadSearch: 0, retryWhenNotCreated: true }),
			connection,
		);
		expect(run.error?.message).toMatch(/may exist/);
		expect(methods().filter((method) => method === 'POST')).toHaveLength(1);
	}, 20_000);
});

describe('Lead Create, never reached', () => {
	it('an unknown network code or any 5xx on a write counts as a lost answer; a refused connection or an unknown host proves it was not sent', () => {
		const node = { id: 'n', name: 'Prospecting', type: PROSPECTING_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} } as INode;
		const write = { method: 'POST', endpoint: '/leads', itemIndex: 0 };
		expect(isOutcomeUnknown(errorFromNetwork(node, { ...write, code: 'EPROTO' }, '', true))).toBe(true);
		const unnamed = errorFromNetwork(node, { ...write, code: undefined }, '', true);
		expect(isOutcomeUnknown(unnamed)).toBe(true);
		expect(unnamed.message).toBe('The answer to POST /leads was lost: the connection failed');
		for (const status of [502, 504]) {
			const error = errorFromStatus(node, { ...write, status, body: { message: 'Gateway' } }, '', true);
			expect(isOutcomeUnknown(error)).toBe(true);
			expect(error.message).toBe(`The answer to POST /leads was lost: a gateway answered ${status}`);
			expect(isOutcomeUnknown(errorFromStatus(node, { ...write, method: 'GET', status }, '', false))).toBe(false);
		}
		for (const status of [500, 503, 524]) expect(isOutcomeUnknown(errorFromStatus(node, { ...write, status }, '', true))).toBe(true);
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']) {
			const error = errorFromNetwork(node, { ...write, code }, '', true);
			expect(isOutcomeUnknown(error)).toBe(false);
			expect(outcomeOf(error)).toBe('notSent');
		}
	});
});

describe('Lead Create, Skip If Exists', () => {
	it('a lead the service commits after the answer timed out is found by a later search: one lead, the run succeeds', async () => {
		slowCommit();
		const run = await runNode(createLead('lenta.skip@example.com', { skipIfExists: true }), connection);
		expect(run.error).toBeUndefined();
		expect(leadsWithEmail('lenta.skip@example.com')).toHaveLength(1);
		expect(run.items[0].json.id).toBe(leadsWithEmail('lenta.skip@example.com')[0].id);
		expect(methods().filter((method) => method === 'POST')).toHaveLength(1);
	});

	it('the same contact posted again while the first create is still being committed gets the one lead', async () => {
		slowCommit();
		const email = 'lenta.dupla@example.com';
		const [first, second] = await Promise.all([
			runNode(createLead(email, { skipIfExists: true }), { ...connection, inputItems: [{}] }),
			wait(100).then(async () => await runNode(createLead(email, { skipIfExists: true }), connection)),
		]);
		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		expect(leadsWithEmail(email)).toHaveLength(1);
		expect(second.items[0].json.id).toBe(first.items[0].json.id);
	});
});

describe('Lead Create, a 200-post spike', () => {
	const POSTS = 200;
	const SLOW = 5;

	it('200 posts at once with 5 slow commits: never two leads for a contact, and a contact left without its lead is told it may exist', async () => {
		sandbox.control.injectFault({
			kind: 'slow-commit',
			commitAfterMs: COMMIT_AFTER_MS,
			count: SLOW,
			methods: ['POST'],
			pathPrefix: '/leads',
		});
		const emails = Array.from({ length: POSTS }, (_, index) => `pico.${index}@example.com`);
		// Each post a form's execution of Lead Create (version 2) with the defaults.
		const runs = await Promise.all(
			emails.map(
				async (email) =>
					await runNode(createLead('={{ $json.email }}', {}) as INode['parameters'], {
						...connection,
						typeVersion: 2,
						// The sandbox's limits, as its user would set them: the node paces on the credential's.
						readsPerWindow: 100_000,
						writesPerWindow: 100_000,
						inputItems: [{ email }],
						mode: 'webhook',
					}),
			),
		);
		const outcomes = emails.map((email, index) => ({
			email,
			leads: leadsWithEmail(email),
			returned: runs[index].items[0]?.json.id,
			error: runs[index].error?.message,
		}));
		expect(outcomes.filter(({ leads }) => leads.length > 1)).toEqual([]);
		// A create the loaded process could not put on the wire before its answer timeout never reaches the service:
		// no lead, and the node, unable to tell, says it may exist. Never a success without its lead.
		const untold = outcomes.filter(({ email, leads, returned, error }) =>
			error !== undefined ? !error.startsWith(`The lead for ${email} may exist: `) : returned === undefined || returned !== leads[0]?.id,
		);
		expect(untold).toEqual([]);
		// Every create the service received made its one lead, nothing was sent twice, and most contacts got theirs back
		// (a node that sent nothing and said "may exist" for all would pass the lines above).
		const posts = sandbox.control.requests().filter((request) => request.method === 'POST');
		expect(posts).toHaveLength(outcomes.filter(({ leads }) => leads.length === 1).length);
		expect(outcomes.filter(({ returned }) => returned !== undefined).length).toBeGreaterThan(POSTS / 2);
		// Each lost answer was looked for (Lead Create with the defaults searches for nothing else); how many searches
		// each took depends on when its commit landed against the machine's load, so it is not counted.
		const searched = new Set(
			sandbox.control.requests().filter((request) => request.method === 'GET').map((request) => request.query.search),
		);
		expect(searched.size).toBeGreaterThanOrEqual(SLOW);
	}, 60_000);
});
