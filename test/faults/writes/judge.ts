/**
 * The invariants of the write path, judged from the service's own record (what it received and applied) and from
 * what each execution said of each item: never from the node's words about itself. Each returns the violations it
 * finds, as sentences; an empty list is a pass.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Lead } from '../../../sandbox';
import { everythingVisible, secretForms } from '../../nodes/support';
import type { ExecutionRun, ReceivedRequest, WriteHistory } from './run';
import { NODE } from './run';
import { executionName, faultWords, itemTag, type DrawnFault } from './schedule';

/** Without a Date header the node allows the service's clock this far behind (the documented limit). */
const UNMEASURED_CLOCK_ALLOWANCE_MS = 120_000;
/**
 * With one, a lead stamped up to this much before the send may be the one sent: the node reads the service's clock
 * from Date, which counts whole seconds (its reading may be a second behind), and allows createdAt a second more.
 */
const CLOCK_MARGIN_MS = 2000;

/** What an execution said of one item. */
export type Report =
	| { kind: 'success'; json: IDataObject }
	| { kind: 'error'; message: string; description: string; outcome?: string }
	| { kind: 'none' };

/** What each execution said of each of its items (its last try, as n8n keeps it). */
export function reportsOf(run: ExecutionRun): Report[] {
	const reports: Report[] = run.items.map(() => ({ kind: 'none' }));
	// A stopped execution says nothing of its items (n8n keeps the node's input as its data).
	if (run.stopped) return reports;
	const { result } = run;
	let output: IDataObject[] = [];
	try {
		output = result.output(NODE).map((item) => ({ ...item.json, __item: (item.pairedItem as { item: number } | undefined)?.item }));
	} catch {
		// The node did not run (a Stop before it).
	}
	for (const json of output) {
		const index = Number(json.__item);
		delete json.__item;
		reports[index] = json.error !== undefined
			? { kind: 'error', message: String(json.error), description: String(json.description ?? ''), outcome: json.writeOutcome as string | undefined }
			: { kind: 'success', json };
	}
	const error = result.error as (Error & { context?: IDataObject; description?: string }) | undefined;
	if (error) {
		const index = Number(error.context?.itemIndex ?? 0);
		if (reports[index]) {
			reports[index] = { kind: 'error', message: error.message, description: String(error.description ?? ''), outcome: error.context?.writeOutcome as string | undefined };
		}
	}
	return reports;
}

const email = (value: unknown) => String(value ?? '').trim().toLowerCase();
const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');

/** A lead's contacts as the service's search matches them: e-mails without case or spaces, numbers by their digits. */
function contactKeys(lead: { emails?: Array<{ value: string }>; phones?: Array<{ value: string }>; mobiles?: Array<{ value: string }> }): string[] {
	return [
		...(lead.emails ?? []).map((item) => `email:${email(item.value)}`),
		...[...(lead.phones ?? []), ...(lead.mobiles ?? [])].map((item) => `number:${digits(item.value)}`),
	];
}

const inputKeys = (input: IDataObject): string[] => [
	...(input.email ? [`email:${email(input.email)}`] : []),
	...(input.phone ? [`number:${digits(input.phone)}`] : []),
];

const tagOf = (lead: Lead): string | undefined =>
	[...lead.emails, ...lead.phones, ...lead.mobiles].map((item) => item.label).find((label) => /^e\di\d+$/.test(label));

const sameName = (a: unknown, b: unknown) => email(a) === email(b);

/** Whether Skip If Exists' rule takes `lead` for an item with these contacts and this name: a contact, and the name when given. */
function skipRuleMatches(lead: Lead, keys: string[], name: string): boolean {
	if (name.trim() !== '' && !sameName(lead.name, name)) return false;
	const held = new Set(contactKeys(lead));
	return keys.some((key) => held.has(key));
}

/** Whether a lead matches every field an item sent (as a retried execution takes a lead for its own). */
function matchesEverythingSent(lead: Lead, input: IDataObject): boolean {
	if (input.name && !sameName(lead.name, input.name)) return false;
	if (input.company && !sameName(lead.company, input.company)) return false;
	const held = new Set(contactKeys(lead));
	return inputKeys(input).every((key) => held.has(key));
}

/** Faults after which nothing tells whether the service applied the write. */
function leavesOutcomeUnknown(fault: DrawnFault | undefined): boolean {
	if (!fault) return false;
	if (fault.kind === 'slow-commit') return fault.gatewayTimeoutMs !== undefined;
	return ['lost', '5xx', 'html-2xx', 'another-record'].includes(fault.kind);
}

const isCreate = (request: ReceivedRequest) => request.method === 'POST' && request.path === '/api/v1/leads';
const isSearch = (request: ReceivedRequest) => request.method === 'GET' && request.path === '/api/v1/leads' && request.query.search !== undefined;
const tagOfBody = (request: ReceivedRequest): string | undefined => {
	const body = request.body as { emails?: Array<{ label: string }>; phones?: Array<{ label: string }> } | undefined;
	return [...(body?.emails ?? []), ...(body?.phones ?? [])].map((item) => item.label)[0];
};

interface Judged {
	history: WriteHistory;
	/** The service's clock offset: its times less this are this machine's. */
	offsetMs: number;
	/** Creating request and commit time (this machine's clock) of each lead the run made. */
	made: Map<string, { request: ReceivedRequest; committedAt: number }>;
	window: number;
}

function judged(history: WriteHistory): Judged {
	const offsetMs = history.schedule.service.clockOffsetMs;
	const made = new Map<string, { request: ReceivedRequest; committedAt: number }>();
	for (const request of history.requests) {
		if (isCreate(request) && request.applied) {
			made.set(request.applied.recordId, { request, committedAt: Date.parse(request.applied.at) - offsetMs });
		}
	}
	return { history, offsetMs, made, window: history.schedule.node.lostLeadSearchSeconds * 1000 };
}

const arrivedAt = (request: ReceivedRequest) => Date.parse(request.at);

/** The last search an execution's requests made before `time` (this machine's clock). */
function lastSearchBefore(j: Judged, executions: number[], time: number): number | undefined {
	const times = j.history.requests
		.filter((request) => isSearch(request) && request.from && executions.includes(request.from.execution) && arrivedAt(request) < time)
		.map(arrivedAt);
	return times.length > 0 ? Math.max(...times) : undefined;
}

/** Which executions ran an item's tag: execution 1 and its retry share theirs. */
const executionsOfTag = (tag: string) => (tag.startsWith('e2') ? [1] : [0, 2]);

/** No item's create commits more than one lead, unless it was sent again after looking and finding nothing. */
function oneLeadPerItem(j: Judged): string[] {
	const violations: string[] = [];
	const byTag = new Map<string, Array<{ id: string; request: ReceivedRequest; committedAt: number }>>();
	for (const [id, made] of j.made) {
		const tag = tagOfBody(made.request);
		if (tag) byTag.set(tag, [...(byTag.get(tag) ?? []), { id, ...made }]);
	}
	for (const [tag, leads] of byTag) {
		if (leads.length < 2) continue;
		// In the order they were sent: a slow commit may land after a later send's.
		const [first, second] = [...leads].sort((a, b) => arrivedAt(a.request) - arrivedAt(b.request));
		const executions = executionsOfTag(tag);
		const lastLook = lastSearchBefore(j, executions, arrivedAt(second.request));
		const lookedAfterFirst = lastLook !== undefined && first.committedAt > lastLook;
		const firstWindowOver = first.committedAt > (lastSearchBefore(j, [first.request.from?.execution ?? 0], first.committedAt) ?? 0) + j.window;
		// A retried execution knows its lead by every field sent: an expression that changes them makes it another lead.
		const firstLead = j.history.leads.find((lead) => lead.id === first.id);
		const retriedWithOtherFields = second.request.from?.execution === 2 && firstLead !== undefined && !sameName(firstLead.name, (second.request.body as IDataObject).name);
		const sentAgainAllowed =
			retriedWithOtherFields || (lookedAfterFirst && (j.history.schedule.node.retryWhenNotCreated || (second.request.from?.execution === 2 && firstWindowOver)));
		if (leads.length > 2 || !sentAgainAllowed) {
			violations.push(`item ${tag} committed ${leads.length} leads (${leads.map((lead) => lead.id).join(', ')}): sent again although ${lastLook === undefined ? 'nothing looked for the first' : `the first was committed ${first.committedAt <= lastLook ? 'before' : 'after'} the last search before the second send`}`);
		}
	}
	return violations;
}

/** With Skip If Exists, no contact gets a second lead while an earlier one exists or may still be committed. */
function noSecondLeadForAContact(j: Judged): string[] {
	if (!j.history.schedule.node.skipIfExists) return [];
	const violations: string[] = [];
	const before = j.history.leads.filter((lead) => !j.made.has(lead.id));
	for (const [id, made] of j.made) {
		const lead = j.history.leads.find((candidate) => candidate.id === id)!;
		const sentAt = arrivedAt(made.request);
		const keys = contactKeys(lead);
		const name = String(lead.name ?? '');
		for (const other of before) {
			if (skipRuleMatches(other, keys, name)) violations.push(`lead ${id} (item ${tagOfBody(made.request)}) was made while lead ${other.id} with its contact already existed`);
		}
		for (const [otherId, otherMade] of j.made) {
			if (otherId === id || tagOfBody(otherMade.request) === tagOfBody(made.request)) continue;
			const other = j.history.leads.find((candidate) => candidate.id === otherId)!;
			if (!skipRuleMatches(other, keys, name) || arrivedAt(otherMade.request) >= sentAt) continue;
			const otherExecution = otherMade.request.from?.execution ?? 0;
			const horizon = (lastSearchBefore(j, [otherExecution], otherMade.committedAt) ?? arrivedAt(otherMade.request)) + j.window;
			if (otherMade.committedAt < sentAt || otherMade.committedAt <= horizon) {
				violations.push(`lead ${id} (item ${tagOfBody(made.request)}) was made while lead ${otherId} (item ${tagOfBody(otherMade.request)}) with its contact ${otherMade.committedAt < sentAt ? 'already existed' : 'could still be committed'}`);
			}
		}
	}
	return violations;
}

/**
 * The documented limit: the API takes no client id, so a lead identical in every field sent and stamped within the
 * clock's margin before the item's first send (a second with a Date header, two minutes without) cannot be told from
 * the one sent.
 */
function indistinguishable(j: Judged, run: ExecutionRun, index: number, lead: Lead): boolean {
	const input = run.items[index];
	const sends = j.history.requests.filter((request) => isCreate(request) && request.from?.execution === run.index && tagOfBody(request) === itemTag(run.index, index));
	if (sends.length === 0 || !matchesEverythingSent(lead, input)) return false;
	const sentAt = sends[0].from?.sentAt ?? arrivedAt(sends[0]);
	const { dateHeader, clockOffsetMs } = j.history.schedule.service;
	const earliest = dateHeader ? sentAt + clockOffsetMs - CLOCK_MARGIN_MS : sentAt - UNMEASURED_CLOCK_ALLOWANCE_MS;
	return Date.parse(lead.createdAt) >= earliest;
}

/** Every item reported created or found names a lead its own create made, or one the options let it take. */
function claimsAreTrue(j: Judged, run: ExecutionRun, reports: Report[]): string[] {
	const violations: string[] = [];
	reports.forEach((report, index) => {
		if (report.kind !== 'success') return;
		const tag = itemTag(run.index, index);
		const input = run.items[index];
		const id = String(report.json.id ?? '');
		const lead = j.history.leads.find((candidate) => candidate.id === id);
		const where = `${executionName(run.index)} item ${index} reported ${String(report.json.leadOutcome)} lead ${id}`;
		if (!lead) return violations.push(`${where}, which the service does not hold`);
		const own = j.made.get(id);
		const ownTag = own && tagOfBody(own.request) === tag;
		if (report.json.leadOutcome === 'created') {
			const ownSend = ownTag && own.request.from?.execution === run.index;
			if (!ownSend && !indistinguishable(j, run, index, lead)) violations.push(`${where}, which its own create did not make`);
			return;
		}
		if (ownTag) return;
		if (indistinguishable(j, run, index, lead)) return;
		const skip = j.history.schedule.node.skipIfExists && skipRuleMatches(lead, inputKeys(input), String(input.name ?? ''));
		// A retried execution takes a lead matching every field sent for its own: the failed execution's send time is not known.
		const retriedMatch = run.mode === 'retry' && matchesEverythingSent(lead, input);
		if (!skip && !retriedMatch) violations.push(`${where}, which its own create did not make`);
		return undefined;
	});
	return violations;
}

/** A write whose outcome was unknown ends found or with outcome unknown; one refused or not sent applied nothing. */
function outcomesAreTrue(j: Judged, run: ExecutionRun, reports: Report[]): string[] {
	const violations: string[] = [];
	reports.forEach((report, index) => {
		const tag = itemTag(run.index, index);
		const creates = j.history.requests.filter((request) => isCreate(request) && request.from?.execution === run.index && tagOfBody(request) === tag);
		const unknown = creates.some((request) => leavesOutcomeUnknown(request.fault));
		const applied = creates.some((request) => request.applied);
		const where = `${executionName(run.index)} item ${index}`;
		if (report.kind === 'error' && (report.outcome === 'notSent' || report.outcome === 'refused') && (applied || unknown)) {
			violations.push(`${where} failed as ${report.outcome}, but ${applied ? 'the service applied its create' : 'its create\'s outcome was unknown'}`);
		}
		if (report.kind === 'error' && report.outcome === undefined) violations.push(`${where} failed without an outcome: ${report.message}`);
		if (unknown && report.kind === 'success' && report.json.leadOutcome === 'created') {
			const last = creates.at(-1);
			const lead = j.history.leads.find((candidate) => candidate.id === report.json.id);
			const limit = lead !== undefined && indistinguishable(j, run, index, lead);
			if (!limit && (!last || leavesOutcomeUnknown(last.fault) || !last.applied)) violations.push(`${where} reported created after an unknown outcome`);
		}
	});
	return violations;
}

/** An item that ends "may exist" while a search it made after the commit answered: the lead was there to find. */
function noLeadMissed(j: Judged, run: ExecutionRun, reports: Report[]): string[] {
	const { service } = j.history.schedule;
	if (!service.dateHeader && service.clockOffsetMs < -UNMEASURED_CLOCK_ALLOWANCE_MS) return [];
	const violations: string[] = [];
	reports.forEach((report, index) => {
		if (report.kind !== 'error' || report.outcome !== 'unknown') return;
		const tag = itemTag(run.index, index);
		const input = run.items[index];
		const first = String(input.email || input.phone).trim();
		for (const [id, made] of j.made) {
			if (tagOfBody(made.request) !== tag) continue;
			// A retried execution knows its lead by every field sent: with a name that changes on every try, it cannot
			// know the failed execution's (the documented limit).
			if (run.mode === 'retry' && input.nameChanges === true && made.request.from?.execution !== run.index) continue;
			const missed = j.history.requests.find(
				(request) =>
					isSearch(request) &&
					request.from?.execution === run.index &&
					request.status === 200 &&
					String(request.query.search).trim() === first &&
					arrivedAt(request) > made.committedAt &&
					!j.history.requests.some((other) => isCreate(other) && other.from?.execution === run.index && tagOfBody(other) !== tag && arrivedAt(other) > made.committedAt && arrivedAt(other) < arrivedAt(request)),
			);
			if (missed) violations.push(`${executionName(run.index)} item ${index} ended "may exist" although its lead ${id} was committed before a search that answered (request ${missed.seq})`);
		}
	});
	return violations;
}

/** The key appears in no output, error or log. */
function keyNeverShown(j: Judged, run: ExecutionRun): string[] {
	const text = everythingVisible(run.result);
	return secretForms(j.history.apiKey).some((form) => text.includes(form)) ? [`${executionName(run.index)} shows the API key`] : [];
}

/** The requests of one item of Routine Add Lead, Webhook Create or Webhook Delete, from one execution. */
function writesOfItem(j: Judged, run: ExecutionRun, input: IDataObject): ReceivedRequest[] {
	const { operation } = j.history.schedule;
	return j.history.requests.filter((request) => {
		if (request.from?.execution !== run.index) return false;
		const body = (request.body ?? {}) as IDataObject;
		if (operation === 'routineAddLead') return request.method === 'POST' && /\/lead$/.test(request.path) && body.leadId === input.leadId;
		if (operation === 'webhookCreate') return request.method === 'POST' && request.path === '/api/v1/webhooks' && body.name === input.name;
		return request.method === 'DELETE' && request.path === `/api/v1/webhooks/${String(input.webhookId)}`;
	});
}

/** Routine Add Lead, Webhook Create and Webhook Delete: never sent twice, never a success the service did not record. */
function otherWritesAreTrue(j: Judged, run: ExecutionRun, reports: Report[]): string[] {
	const { operation } = j.history.schedule;
	const violations: string[] = [];
	reports.forEach((report, index) => {
		const input = run.items[index];
		const writes = writesOfItem(j, run, input);
		const applied = writes.filter((request) => request.applied);
		const unknown = writes.some((request) => leavesOutcomeUnknown(request.fault));
		const where = `${executionName(run.index)} item ${index}`;
		if (applied.length > 1 && operation !== 'webhookDelete') violations.push(`${where} was applied ${applied.length} times in one execution`);
		if (report.kind === 'error') {
			if (report.outcome === undefined) violations.push(`${where} failed without an outcome: ${report.message}`);
			if ((report.outcome === 'notSent' || report.outcome === 'refused') && (applied.length > 0 || unknown)) {
				violations.push(`${where} failed as ${report.outcome}, but ${applied.length > 0 ? 'the service applied it' : 'its outcome was unknown'}`);
			}
			if (operation === 'webhookCreate') {
				const named = /The webhook was created \(id ([^)]+)\)/.exec(report.description)?.[1];
				const ownIds = j.history.requests
					.filter((request) => request.method === 'POST' && (request.body as IDataObject | undefined)?.name === input.name && request.applied)
					.map((request) => request.applied!.recordId);
				if (named && !ownIds.includes(named)) violations.push(`${where} named webhook ${named} as the one it created, which its create did not make`);
			}
			return;
		}
		if (report.kind !== 'success') return;
		if (operation === 'webhookDelete') {
			// Gone by the time the item was reported: deleted before this execution's last request about it.
			const id = String(input.webhookId);
			const asked = j.history.requests.filter((request) => request.from?.execution === run.index && request.path.startsWith('/api/v1/webhooks')).map(arrivedAt);
			const deletes = j.history.requests.filter((request) => request.method === 'DELETE' && request.applied?.recordId === id);
			// Its own delete's answer follows the commit; another's must have come before this execution last asked.
			const ownDelete = deletes.some((request) => request.from?.execution === run.index);
			const deletedBefore = deletes.some((request) => Date.parse(request.applied!.at) - j.offsetMs <= Math.max(...asked));
			if (id !== 'wh_missing' && !ownDelete && !deletedBefore) violations.push(`${where} reported webhook ${id} deleted while the service still listed it`);
			return;
		}
		if (unknown) violations.push(`${where} reported success after an unknown outcome`);
		if (operation === 'routineAddLead' && applied.length === 0) violations.push(`${where} reported the lead added, which the service did not record`);
		if (operation === 'webhookCreate') {
			const webhook = j.history.webhooks.find((candidate) => candidate.id === report.json.id);
			if (!applied.some((request) => request.applied?.recordId === report.json.id)) violations.push(`${where} reported webhook ${String(report.json.id)} created, which its create did not make`);
			else if (webhook?.secret !== report.json.secret) violations.push(`${where} reported webhook ${String(report.json.id)} with a secret that is not its own`);
		}
	});
	return violations;
}

export interface Violation {
	/** The invariant broken, by the name of its check. */
	invariant: string;
	text: string;
}

/** Every violation of the write path's invariants in this history. */
export function violationsOf(history: WriteHistory): Violation[] {
	const j = judged(history);
	const found: Violation[] = [];
	const check = (invariant: (...args: never[]) => string[], texts: string[]) => found.push(...texts.map((text) => ({ invariant: invariant.name, text })));
	const leadCreate = history.schedule.operation === 'leadCreate';
	if (leadCreate) {
		check(oneLeadPerItem, oneLeadPerItem(j));
		check(noSecondLeadForAContact, noSecondLeadForAContact(j));
	}
	for (const run of history.executions) {
		const reports = reportsOf(run);
		if (leadCreate) {
			check(claimsAreTrue, claimsAreTrue(j, run, reports));
			check(outcomesAreTrue, outcomesAreTrue(j, run, reports));
			check(noLeadMissed, noLeadMissed(j, run, reports));
		} else {
			check(otherWritesAreTrue, otherWritesAreTrue(j, run, reports));
		}
		check(keyNeverShown, keyNeverShown(j, run));
	}
	return found;
}

/** What happened, as a story: every request with its fault and what the service did, and what each execution said. */
export function historyStory(history: WriteHistory): string {
	const j = judged(history);
	const lines: string[] = ['what the service received:'];
	for (const request of history.requests) {
		const from = request.from ? `${executionName(request.from.execution)} #${request.from.index}` : 'setup';
		const search = request.query.search ? `?search=${String(request.query.search)}` : '';
		const body = request.body ? ` ${JSON.stringify(request.body)}` : '';
		const fault = request.fault ? ` [${faultWords(request.fault)}]` : '';
		const applied = request.applied ? ` → applied ${request.applied.recordId} at ${request.applied.at}` : '';
		lines.push(`  ${request.at} ${from}: ${request.method} ${request.path}${search}${body}${fault} → ${request.dropped ? 'dropped' : request.status}${applied}`);
	}
	for (const refused of history.refused) lines.push(`  ${executionName(refused.execution)} #${refused.index}: ${refused.method} ${refused.path} → connection refused`);
	lines.push('leads the run made:');
	for (const [id, made] of j.made) {
		const lead = history.leads.find((candidate) => candidate.id === id);
		lines.push(`  ${id} (item ${tagOfBody(made.request)}) committed ${new Date(made.committedAt).toISOString()}: ${JSON.stringify({ name: lead?.name, emails: lead?.emails.map((item) => item.value), phones: lead?.phones.map((item) => item.value) })}`);
	}
	for (const run of history.executions) {
		lines.push(`${executionName(run.index)} (${run.mode}${run.stopped ? ', stopped' : ''}) said:`);
		reportsOf(run).forEach((report, index) => {
			const said = report.kind === 'success' ? JSON.stringify(report.json) : report.kind === 'error' ? `error (${report.outcome}): ${report.message} | ${report.description}` : 'nothing';
			lines.push(`  item ${index}: ${said}`);
		});
	}
	return lines.join('\n');
}

export { tagOf };
