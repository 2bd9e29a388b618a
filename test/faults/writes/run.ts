/**
 * Runs one write-path schedule: the service set up as the schedule says, the executions through n8n's engine against
 * it on the schedule's clock, each request given its drawn fault, and then the history a judge reads: what the
 * service received and applied, and what each execution said of each item.
 */
import type { Scheduler } from 'fast-check';
import type { IDataObject, INode } from 'n8n-workflow';

import type { Fault, Lead, RecordedRequest, RunningSandbox, WebhookWithSecret } from '../../../sandbox';
import type { WorkflowRunResult } from '../../../dev/harness';
import { NODE_NAME, runNode } from '../../nodes/support';
import { asCaller, forgetPorts, refuseConnections, requestFromPort, type CallerRequest } from '../support/network';
import { onScheduleClock } from '../support/schedule-clock';
import { emailForms, freshEmail, itemTag, PEOPLE, phoneForms, POOL_SIZE, type DrawnFault, type LeadItem, type PoolItem, type WriteSchedule } from './schedule';
import { existingWebhook } from '../../support/service';

export const NODE = NODE_NAME;

/** One execution as it ran: which, in which mode, with which items, and what n8n kept of it. */
export interface ExecutionRun {
	index: number;
	mode: 'webhook' | 'retry';
	items: IDataObject[];
	result: WorkflowRunResult;
	stopped: boolean;
}

/** A request the service received, with the execution that sent it and its place among that execution's requests. */
export interface ReceivedRequest extends RecordedRequest {
	from?: { execution: number; index: number; kind: 'write' | 'read'; nth: number; sentAt: number };
	fault?: DrawnFault;
}

export interface WriteHistory {
	schedule: WriteSchedule;
	apiKey: string;
	requests: ReceivedRequest[];
	/** Requests refused before they reached the service. */
	refused: Array<{ execution: number; index: number; method: string; path: string }>;
	leads: Lead[];
	webhooks: WebhookWithSecret[];
	executions: ExecutionRun[];
	/** When the run started, on the service's clock. */
	startedAt: number;
}

const callerName = (execution: number) => `schedule-execution-${execution}`;
const executionOf = (call: CallerRequest) => Number(call.caller.slice(callerName(0).length - 1));

let accounts = 0;

/** The input item of a lead item: the fields the node's expressions read. */
function leadInput(item: LeadItem, tag: string): IDataObject {
	const person = PEOPLE[item.person];
	return {
		tag,
		email: item.email === 'none' ? '' : item.email === 'fresh' ? freshEmail(tag) : emailForms(person.email)[item.email],
		phone: item.phone === 'none' ? '' : phoneForms(person.phone)[item.phone],
		name: item.name === 'person' ? person.name : '',
		nameChanges: item.name === 'changes',
		company: item.company === 'person' ? person.company : '',
	};
}

/** The node's parameters for the schedule's write, reading each item's fields with expressions. */
function parametersOf(schedule: WriteSchedule, routineId: string): INode['parameters'] {
	const { node } = schedule;
	switch (schedule.operation) {
		case 'leadCreate':
			return {
				resource: 'lead',
				operation: 'create',
				// An expression evaluated again on every try: the body changes from one try to the next.
				name: '={{ $json.nameChanges ? "Visitor " + $now.toMillis() : $json.name }}',
				company: '={{ $json.company }}',
				email: '={{ $json.email }}',
				phone: '={{ $json.phone }}',
				// The label tells the service's record which item sent a lead; nothing compares labels.
				additionalFields: { contactLabel: '={{ $json.tag }}' },
				options: {
					skipIfExists: node.skipIfExists,
					retryWhenNotCreated: node.retryWhenNotCreated,
					lostLeadSearch: node.lostLeadSearchSeconds,
				},
			};
		case 'routineAddLead':
			return {
				resource: 'routine',
				operation: 'addLead',
				routineId: { __rl: true, mode: 'id', value: routineId },
				leadId: '={{ $json.leadId }}',
				// Round-robin by the time of the try: another responsible on every try.
				responsibleId: '={{ $json.changes ? ["usr_ana", "usr_bruno", "usr_carla"][$now.toMillis() % 3] : "" }}',
			};
		case 'webhookCreate':
			return { resource: 'webhook', operation: 'create', name: '={{ $json.name }}', url: '={{ $json.url }}' };
		case 'webhookDelete':
			return { resource: 'webhook', operation: 'delete', webhookId: '={{ $json.webhookId }}' };
	}
}

/** The sandbox's fault for a drawn one (a refused connection never reaches the sandbox). */
function sandboxFault(fault: DrawnFault, another: () => string): Fault | undefined {
	switch (fault.kind) {
		case 'lost':
			return { kind: 'drop', when: fault.when, count: 1 };
		case '5xx':
			return { kind: 'status', status: fault.status, when: fault.when, count: 1 };
		case 'slow-commit':
			return { kind: 'slow-commit', commitAfterMs: fault.commitAfterMs, gatewayTimeoutMs: fault.gatewayTimeoutMs, count: 1 };
		case 'html-2xx':
			return { kind: 'malformed', when: fault.when, count: 1 };
		case 'another-record':
			return { kind: 'malformed', when: fault.when, status: 201, body: another(), count: 1 };
		case 'redirect':
			return { kind: 'redirect', status: fault.status, location: 'https://moved.example.invalid/api/v1', count: 1 };
		case 'html-404':
			return { kind: 'status', status: 404, body: '<!DOCTYPE html><html><body>404 Not Found</body></html>', contentType: 'text/html', count: 1 };
		case '429':
			return { kind: 'rate-limit', count: 1, hints: fault.hints, retryAfterSeconds: 1 };
		case 'held':
			return { kind: 'latency', ms: fault.ms };
		case 'refused':
			return undefined;
	}
}

async function createExisting(sandbox: RunningSandbox, apiKey: string, lead: IDataObject, createdAt: number): Promise<void> {
	sandbox.control.setCreatedAt(new Date(createdAt).toISOString());
	try {
		const answer = await fetch(`${sandbox.url}/api/v1/leads?apiKey=${apiKey}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(lead),
		});
		if (answer.status !== 201) throw new Error(`the service refused an existing lead: ${answer.status} ${await answer.text()}`);
	} finally {
		sandbox.control.setCreatedAt(null);
	}
}

/** The leads the service holds before the run, made as long before as the schedule says. */
async function setUpExisting(sandbox: RunningSandbox, apiKey: string, schedule: WriteSchedule): Promise<void> {
	const serviceNow = Date.now() + schedule.service.clockOffsetMs;
	for (const existing of schedule.existing) {
		const person = PEOPLE[existing.person];
		const contact = (value: string) => [{ value, label: 'existing' }];
		if (existing.kind === 'phoneOnly') {
			await createExisting(sandbox, apiKey, { name: person.name, phones: contact(person.phone) }, serviceNow - existing.ageSeconds * 1000);
			continue;
		}
		const input = leadInput(schedule.first[existing.item] as LeadItem, itemTag(0, existing.item));
		const lead: IDataObject = {};
		if (input.name) lead.name = input.name;
		if (input.company) lead.company = input.company;
		if (input.email) lead.emails = contact(String(input.email).trim());
		if (input.phone) lead.phones = contact(String(input.phone));
		await createExisting(sandbox, apiKey, lead, serviceNow - existing.ageSeconds * 1000);
	}
}

/** The webhook of an item of Webhook Create: its name and URL come from its tag. */
export const webhookOf = (tag: string) => ({ name: `Hook ${tag}`, url: `https://hooks.example.invalid/${tag}` });

/** What the service holds before the run, and the input item of each item of each execution. */
async function setUp(sandbox: RunningSandbox, apiKey: string, schedule: WriteSchedule): Promise<(execution: number) => IDataObject[]> {
	const items = (execution: number) => (execution === 1 ? schedule.second?.items ?? [] : schedule.first);
	if (schedule.operation === 'leadCreate') {
		await setUpExisting(sandbox, apiKey, schedule);
		return (execution) => items(execution).map((item, index) => leadInput(item as LeadItem, itemTag(execution, index)));
	}
	if (schedule.operation === 'routineAddLead') {
		const leads = sandbox.control.leads().slice(0, POOL_SIZE).map((lead) => lead.id);
		return (execution) =>
			items(execution).map((item, index) => {
				const { record, changes } = item as PoolItem;
				return { tag: itemTag(execution, index), leadId: leads[record] ?? 'lead_missing', changes };
			});
	}
	if (schedule.operation === 'webhookCreate') {
		if (schedule.sameWebhookAs !== undefined) await existingWebhook({ url: sandbox.url, apiKey }, webhookOf(itemTag(0, schedule.sameWebhookAs)));
		return (execution) => items(execution).map((_, index) => ({ tag: itemTag(execution, index), ...webhookOf(itemTag(execution, index)) }));
	}
	const pool: string[] = [];
	for (let index = 0; index < POOL_SIZE; index++) pool.push(await existingWebhook({ url: sandbox.url, apiKey }, { name: `Pool ${index}`, url: `https://pool.example.invalid/${index}` }));
	return (execution) =>
		items(execution).map((item, index) => ({ tag: itemTag(execution, index), webhookId: pool[(item as PoolItem).record] ?? 'wh_missing' }));
}

/** A record of another contact or webhook, as a 2xx that is not this write's answer carries it. */
function anotherRecord(sandbox: RunningSandbox, schedule: WriteSchedule): string {
	if (schedule.operation === 'webhookCreate' || schedule.operation === 'webhookDelete') {
		return JSON.stringify({ id: 'wh_other', name: 'Other', url: 'https://other.example.invalid/hook', events: ['prospection.won'], secret: 'other-secret' });
	}
	return JSON.stringify(sandbox.control.leads().at(-1));
}

/** Runs the schedule against a sandbox this suite started, on the schedule's clock. */
export async function runWriteSchedule(sandbox: RunningSandbox, schedule: WriteSchedule, scheduler?: Scheduler): Promise<WriteHistory> {
	sandbox.control.reset();
	forgetPorts();
	// A new account per schedule: nothing a process remembers of an account carries over from one schedule to another.
	const apiKey = `sbx_schedule_${String(++accounts).padStart(28, '0')}`;
	sandbox.control.acceptKey(apiKey);
	sandbox.control.setRateLimit({ enabled: false, clockOffsetMs: schedule.service.clockOffsetMs, dateHeader: schedule.service.dateHeader });
	const inputsOf = await setUp(sandbox, apiKey, schedule);
	const before = sandbox.control.requests().length;
	const another = () => anotherRecord(sandbox, schedule);

	const faultOf = (execution: number, call: { kind: 'write' | 'read'; nth: number }) =>
		schedule.faults.find((planned) => planned.execution === execution && planned.on === call.kind && planned.nth === call.nth)?.fault;
	const stops = [new AbortController(), new AbortController(), new AbortController()];
	const arrivals = new Map<number, ReceivedRequest['from'] & object>();
	const refused: WriteHistory['refused'] = [];
	refuseConnections((call) => {
		const execution = executionOf(call);
		const { stop } = schedule;
		if (stop?.execution === execution && stop.on === call.kind && stop.nth === call.nth) {
			// The Stop comes while this request starts, as a user's click does.
			setImmediate(() => stops[execution].abort());
		}
		if (faultOf(execution, call)?.kind !== 'refused') return false;
		refused.push({ execution, index: call.index, method: call.method, path: call.path });
		return true;
	});
	const together = schedule.second?.when === 'together';
	sandbox.control.planFaults(async (request) => {
		const call = requestFromPort(request.remotePort);
		if (!call) return undefined;
		const execution = executionOf(call);
		arrivals.set(request.seq, { execution, index: call.index, kind: call.kind, nth: call.nth, sentAt: call.sentAt });
		// Two executions at once: the scheduler decides which of the requests waiting at the door goes in first.
		if (together && scheduler) await scheduler.schedule(Promise.resolve(), `${callerName(execution)} #${call.index}`);
		const fault = faultOf(execution, call);
		return fault ? sandboxFault(fault, another) : undefined;
	});

	const parameters = parametersOf(schedule, sandbox.control.routines()[0].id);
	const { maxTries, waitBetweenTriesMs, continueOnFail } = schedule.node;
	const execute = async (index: number, mode: ExecutionRun['mode']): Promise<ExecutionRun> => {
		const items = inputsOf(index);
		const result = await asCaller(callerName(index), async () =>
			await runNode(parameters, {
				baseUrl: sandbox.url,
				apiKey,
				inputItems: items,
				mode,
				maxTries,
				waitBetweenTries: waitBetweenTriesMs,
				continueOnFail,
				stop: stops[index].signal,
			}),
		);
		return { index, mode, items, result, stopped: stops[index].signal.aborted };
	};

	const startedAt = Date.now() + schedule.service.clockOffsetMs;
	try {
		const { result: executions } = await onScheduleClock(async () => {
			const runs: ExecutionRun[] = [];
			if (schedule.second?.when === 'together') runs.push(...(await Promise.all([execute(0, 'webhook'), execute(1, 'webhook')])));
			else {
				runs.push(await execute(0, 'webhook'));
				if (schedule.second) runs.push(await execute(1, 'webhook'));
			}
			const first = runs[0];
			if (schedule.retried && first.result.error && !first.stopped) runs.push(await execute(2, 'retry'));
			return runs;
		}, scheduler);
		const requests = sandbox.control
			.requests()
			.slice(before)
			.map((request): ReceivedRequest => {
				const from = arrivals.get(request.seq);
				return { ...request, from, fault: from && faultOf(from.execution, from) };
			});
		return { schedule, apiKey, requests, refused, leads: sandbox.control.leads(), webhooks: sandbox.control.webhooks(), executions, startedAt };
	} finally {
		refuseConnections(undefined);
		sandbox.control.planFaults(undefined);
	}
}
