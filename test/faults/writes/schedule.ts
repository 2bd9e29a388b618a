/**
 * What one write-path fault schedule is made of, drawn by fast-check: the write, its items (contacts from a small
 * pool, so that they collide), what the service holds before, the node's options and settings, one or two executions
 * (at once, one after the other, or a retry from the executions list), a Stop, the service's clock, and a fault for
 * chosen requests. A schedule is data: it prints as the story of what was done.
 */
import fc from 'fast-check';

export type Operation = 'leadCreate' | 'routineAddLead' | 'webhookCreate' | 'webhookDelete';

/** A fault for one request, from the sandbox's set (a refused connection: nothing listening). */
export type DrawnFault =
	| { kind: 'lost'; when: 'before-commit' | 'after-commit' }
	| { kind: '5xx'; status: 500 | 502 | 503 | 504; when: 'before-commit' | 'after-commit' }
	| { kind: 'slow-commit'; commitAfterMs: number; gatewayTimeoutMs?: number }
	| { kind: 'html-2xx'; when: 'before-commit' | 'after-commit' }
	| { kind: 'another-record'; when: 'before-commit' | 'after-commit' }
	| { kind: 'redirect'; status: 301 | 302 | 307 }
	| { kind: 'html-404' }
	| { kind: '429'; hints: boolean }
	| { kind: 'held'; ms: number }
	| { kind: 'refused' };

/** A request of one execution: its n-th write or n-th read (0 first). */
export interface RequestPlace {
	/** 0: the first execution, 1: the second, 2: the retry of the first. */
	execution: number;
	on: 'write' | 'read';
	nth: number;
}

export interface PlannedFault extends RequestPlace {
	fault: DrawnFault;
}

/** The people contacts come from: items and existing leads share them, written in several ways. */
export const PEOPLE = [
	{ email: 'ana.souza@example.com', phone: '+55 11 3333-4444', name: 'Ana Souza', company: 'Acme Ltda' },
	{ email: 'bruno.lima@example.com', phone: '+55 21 5555-6666', name: 'Bruno Lima', company: 'Beta SA' },
] as const;

const digitsOf = (phone: string) => phone.replace(/\D/g, '');

/** The same e-mail as the service's search matches it: another case, spaces around. */
export const emailForms = (email: string): string[] => [email, email.toUpperCase(), `  ${email} `];
/** The same phone as the service's search matches it: by its digits, whatever the punctuation. */
export const phoneForms = (phone: string): string[] => [phone, digitsOf(phone), `+${digitsOf(phone).slice(0, 2)} (${digitsOf(phone).slice(2, 4)}) ${digitsOf(phone).slice(4, 8)} ${digitsOf(phone).slice(8)}`];

export interface LeadItem {
	person: number;
	/** A form of the person's e-mail, a new address (`fresh`), or none. */
	email: number | 'fresh' | 'none';
	phone: number | 'none';
	/** The person's name, an expression that changes on every try ('Visitor ' + the time), or none. */
	name: 'person' | 'changes' | 'none';
	company: 'person' | 'none';
}

export interface ExistingLead {
	person: number;
	/** Only the person's phone, or identical (name, company, e-mail, phone) to an item of the first execution. */
	kind: 'phoneOnly' | 'identical';
	/** For `identical`: which item of the first execution. */
	item: number;
	/** How long before the run it was made. */
	ageSeconds: number;
}

export interface NodeSettings {
	/** Retry On Fail's Max Tries; 1: off. */
	maxTries: number;
	waitBetweenTriesMs: number;
	continueOnFail: boolean;
	skipIfExists: boolean;
	retryWhenNotCreated: boolean;
	lostLeadSearchSeconds: number;
}

/**
 * An item of Routine Add Lead (a lead of the pool; `changes`: a responsible that an expression picks anew on every
 * try), Webhook Create (its name and URL come from the item's tag) or Webhook Delete (a webhook of the pool, or
 * one that does not exist).
 */
export interface PoolItem {
	record: number;
	changes: boolean;
}

/** Leads of the seeded dataset Routine Add Lead adds; webhooks the service holds before a Webhook Delete. */
export const POOL_SIZE = 3;

export interface WriteSchedule {
	operation: Operation;
	node: NodeSettings;
	service: { clockOffsetMs: number; dateHeader: boolean };
	existing: ExistingLead[];
	/** Webhook Create: the user's own webhook with the name and URL of this item of the first execution. */
	sameWebhookAs?: number;
	/** Items of the first execution. */
	first: Array<LeadItem | PoolItem>;
	second?: { when: 'together' | 'after'; items: Array<LeadItem | PoolItem> };
	/** The first execution retried from the executions list once it failed. */
	retried: boolean;
	/** A Stop as this request starts. */
	stop?: RequestPlace;
	faults: PlannedFault[];
}

const when = fc.constantFrom<'before-commit' | 'after-commit'>('before-commit', 'after-commit');

export const drawnFault: fc.Arbitrary<DrawnFault> = fc.oneof(
	{ arbitrary: fc.record({ kind: fc.constant('lost' as const), when }), weight: 4 },
	{ arbitrary: fc.record({ kind: fc.constant('5xx' as const), status: fc.constantFrom(500 as const, 502 as const, 503 as const, 504 as const), when }), weight: 4 },
	{
		arbitrary: fc
			.record({ commitAfterMs: fc.integer({ min: 100, max: 400_000 }), gateway: fc.boolean() })
			.map(({ commitAfterMs, gateway }) => ({
				kind: 'slow-commit' as const,
				commitAfterMs,
				...(gateway ? { gatewayTimeoutMs: Math.floor(commitAfterMs / 2) } : {}),
			})),
		weight: 3,
	},
	{ arbitrary: fc.record({ kind: fc.constant('html-2xx' as const), when }), weight: 2 },
	{ arbitrary: fc.record({ kind: fc.constant('another-record' as const), when }), weight: 2 },
	{ arbitrary: fc.record({ kind: fc.constant('redirect' as const), status: fc.constantFrom(301 as const, 302 as const, 307 as const) }), weight: 1 },
	{ arbitrary: fc.constant({ kind: 'html-404' as const }), weight: 1 },
	{ arbitrary: fc.record({ kind: fc.constant('429' as const), hints: fc.boolean() }), weight: 2 },
	{ arbitrary: fc.record({ kind: fc.constant('held' as const), ms: fc.integer({ min: 60_000, max: 90 * 60_000 }) }), weight: 2 },
	{ arbitrary: fc.constant({ kind: 'refused' as const }), weight: 2 },
);

const leadItem: fc.Arbitrary<LeadItem> = fc
	.record({
		person: fc.integer({ min: 0, max: PEOPLE.length - 1 }),
		email: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom<'fresh' | 'none'>('fresh', 'none')),
		phone: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant<'none'>('none')),
		name: fc.constantFrom<LeadItem['name']>('person', 'changes', 'none'),
		company: fc.constantFrom<LeadItem['company']>('person', 'none'),
	})
	// A lead needs a contact: an item without one gets the person's e-mail.
	.map((item) => (item.email === 'none' && item.phone === 'none' ? { ...item, email: 0 } : item));

const settings: fc.Arbitrary<NodeSettings> = fc.record({
	maxTries: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 5 })),
	waitBetweenTriesMs: fc.constantFrom(1, 1000, 5000),
	continueOnFail: fc.boolean(),
	skipIfExists: fc.boolean(),
	retryWhenNotCreated: fc.boolean(),
	lostLeadSearchSeconds: fc.constantFrom(0, 1, 5, 30, 180),
});

const place = (executions: number): fc.Arbitrary<RequestPlace> =>
	fc.record({
		execution: fc.integer({ min: 0, max: executions - 1 }),
		// Most faults that matter meet a write; reads are searches and lists, retried or checked.
		on: fc.oneof({ arbitrary: fc.constant<'write'>('write'), weight: 2 }, { arbitrary: fc.constant<'read'>('read'), weight: 1 }),
		nth: fc.nat(5),
	});

/** The first execution's first write: where a fault decides most. */
const firstWrite: fc.Arbitrary<RequestPlace> = fc.constant({ execution: 0, on: 'write', nth: 0 });

/** Faults for some requests of each execution (often the first write); most requests go through untouched. */
const faults: fc.Arbitrary<PlannedFault[]> = fc.uniqueArray(
	fc.tuple(fc.oneof(place(3), firstWrite), drawnFault).map(([at, fault]) => ({ ...at, fault })),
	{ maxLength: 6, selector: (planned) => `${planned.execution}:${planned.on}:${planned.nth}` },
);

const service = fc.record({
	clockOffsetMs: fc.oneof(fc.constant(0), fc.integer({ min: -600, max: 600 }).map((seconds) => seconds * 1000)),
	dateHeader: fc.oneof({ arbitrary: fc.constant(true), weight: 6 }, { arbitrary: fc.constant(false), weight: 1 }),
});

/** A Stop anywhere, or while the first execution sends its first write or looks for what it sent. */
const stop = fc.option(
	fc.oneof(place(2), firstWrite, fc.record({ execution: fc.constant(0), on: fc.constant<'read'>('read'), nth: fc.integer({ min: 1, max: 4 }) })),
	{ nil: undefined, freq: 4 },
);

/** Items of one execution of the other writes: distinct records (one execution adds or deletes each once). */
const poolItems = (maxLength: number) =>
	fc.uniqueArray(fc.record({ record: fc.integer({ min: 0, max: POOL_SIZE }), changes: fc.boolean() }), { minLength: 1, maxLength, selector: (item) => item.record });

export const leadCreateSchedule: fc.Arbitrary<WriteSchedule> = fc
	.record({
		node: settings,
		service,
		first: fc.array(leadItem, { minLength: 1, maxLength: 4 }),
		existing: fc.array(
			fc.record({
				person: fc.integer({ min: 0, max: PEOPLE.length - 1 }),
				kind: fc.constantFrom<ExistingLead['kind']>('phoneOnly', 'identical'),
				item: fc.nat(3),
				ageSeconds: fc.constantFrom(3, 60, 600),
			}),
			{ maxLength: 2 },
		),
		second: fc.option(
			fc.record({
				when: fc.constantFrom<'together' | 'after'>('together', 'after'),
				items: fc.array(leadItem, { minLength: 1, maxLength: 3 }),
				// The same people as the first execution's items: a form posted again.
				samePeople: fc.boolean(),
			}),
			{ nil: undefined },
		),
		retried: fc.boolean(),
		stop,
		faults,
	})
	.map(({ second, ...drawn }) => ({
		operation: 'leadCreate' as const,
		...drawn,
		second: second && {
			when: second.when,
			items: second.samePeople
				? second.items.map((item, index) => ({ ...item, person: (drawn.first[index % drawn.first.length] as LeadItem).person, email: item.email === 'fresh' ? 0 : item.email }))
				: second.items,
		},
	}))
	// An existing lead identical to an item whose name changes on every try could not be identical to any try.
	.map((schedule) => ({
		...schedule,
		existing: schedule.existing
			.map((lead) => ({ ...lead, item: lead.item % schedule.first.length }))
			.filter((lead) => lead.kind === 'phoneOnly' || (schedule.first[lead.item] as LeadItem).name !== 'changes'),
	}))
	.map((schedule) => withStory(schedule));

/** Routine Add Lead, Webhook Create and Webhook Delete over the same faults, settings and executions. */
export const otherWriteSchedule: fc.Arbitrary<WriteSchedule> = fc
	.record({
		operation: fc.constantFrom<Operation>('routineAddLead', 'webhookCreate', 'webhookDelete'),
		node: settings,
		service,
		first: poolItems(3),
		sameWebhookAs: fc.option(fc.nat(2), { nil: undefined }),
		second: fc.option(fc.record({ when: fc.constantFrom<'together' | 'after'>('together', 'after'), items: poolItems(2) }), { nil: undefined }),
		retried: fc.boolean(),
		stop,
		faults,
	})
	.map((schedule) => ({
		...schedule,
		existing: [],
		sameWebhookAs: schedule.operation === 'webhookCreate' && schedule.sameWebhookAs !== undefined ? schedule.sameWebhookAs % schedule.first.length : undefined,
	}))
	.map((schedule) => withStory(schedule));

/** Words for one lead item, as the story tells it. */
export function itemWords(item: LeadItem, tag: string): string {
	const person = PEOPLE[item.person];
	const parts = [
		item.email === 'none' ? '' : `email ${JSON.stringify(item.email === 'fresh' ? freshEmail(tag) : emailForms(person.email)[item.email])}`,
		item.phone === 'none' ? '' : `phone ${JSON.stringify(phoneForms(person.phone)[item.phone])}`,
		item.name === 'none' ? '' : item.name === 'changes' ? "name 'Visitor ' + the time of the try" : `name ${JSON.stringify(person.name)}`,
		item.company === 'none' ? '' : `company ${JSON.stringify(person.company)}`,
	];
	return parts.filter(Boolean).join(', ');
}

export const freshEmail = (tag: string) => `novo.${tag}@example.com`;

export function faultWords(fault: DrawnFault): string {
	switch (fault.kind) {
		case 'lost':
			return `answer lost ${fault.when === 'before-commit' ? 'before' : 'after'} the commit`;
		case '5xx':
			return `${fault.status} ${fault.when === 'before-commit' ? 'before' : 'after'} the commit`;
		case 'slow-commit':
			return `slow commit after ${fault.commitAfterMs / 1000} s${fault.gatewayTimeoutMs === undefined ? '' : `, a gateway's 504 after ${fault.gatewayTimeoutMs / 1000} s`}`;
		case 'html-2xx':
			return `a 200 HTML page ${fault.when === 'before-commit' ? 'before' : 'after'} the commit`;
		case 'another-record':
			return `a 200 JSON record of another contact ${fault.when === 'before-commit' ? 'before' : 'after'} the commit`;
		case 'redirect':
			return `a ${fault.status} redirect`;
		case 'html-404':
			return "a proxy's HTML 404";
		case '429':
			return fault.hints ? 'a 429 with Retry-After' : 'a bare 429 without hints';
		case 'held':
			return `held ${Math.round(fault.ms / 60_000)} min before the service reads it`;
		case 'refused':
			return 'connection refused';
	}
}

export const executionName = (index: number) => ['execution 1', 'execution 2', 'the retry of execution 1'][index];
const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th'];
export const placeWords = (at: RequestPlace) => `${executionName(at.execution)}, its ${ORDINALS[at.nth] ?? `${at.nth + 1}th`} ${at.on}`;
/** An item's tag (its contacts' label): a retry of execution 1 runs execution 1's items again, with their tags. */
export const itemTag = (execution: number, item: number) => `e${execution === 1 ? 2 : 1}i${item}`;

const OPERATION_NAMES: Record<Operation, string> = {
	leadCreate: 'Lead Create',
	routineAddLead: 'Routine Add Lead',
	webhookCreate: 'Webhook Create',
	webhookDelete: 'Webhook Delete',
};

/** Words for an item of any write. */
function anyItemWords(schedule: WriteSchedule, item: LeadItem | PoolItem, tag: string): string {
	if (schedule.operation === 'leadCreate') return itemWords(item as LeadItem, tag);
	const { record, changes } = item as PoolItem;
	if (schedule.operation === 'routineAddLead') return `lead ${record} of the pool${changes ? ', a responsible picked anew on every try' : ''}`;
	if (schedule.operation === 'webhookCreate') return `webhook "Hook ${tag}"`;
	return record === POOL_SIZE ? 'a webhook that does not exist' : `webhook ${record} of the pool`;
}

/** The schedule as a story: what fast-check prints for a counterexample. */
export function story(schedule: WriteSchedule): string {
	const { node, service } = schedule;
	const options =
		schedule.operation === 'leadCreate'
			? `; Skip If Exists ${node.skipIfExists ? 'on' : 'off'}, Send Again If Not Found ${node.retryWhenNotCreated ? 'on' : 'off'}, Look for a Lost Lead For ${node.lostLeadSearchSeconds} s`
			: '';
	const lines = [
		`${OPERATION_NAMES[schedule.operation]}${options}; Retry On Fail ${node.maxTries > 1 ? `${node.maxTries} tries, ${node.waitBetweenTriesMs} ms apart` : 'off'}; Continue On Fail ${node.continueOnFail ? 'on' : 'off'}`,
		`the service's clock ${service.clockOffsetMs === 0 ? 'on time' : `${Math.abs(service.clockOffsetMs / 1000)} s ${service.clockOffsetMs < 0 ? 'behind' : 'ahead'}`}; ${service.dateHeader ? 'Date header sent' : 'no Date header'}`,
		...schedule.existing.map((lead) =>
			lead.kind === 'phoneOnly'
				? `existing: a lead of ${PEOPLE[lead.person].name} with only ${PEOPLE[lead.person].phone}, made ${lead.ageSeconds} s before`
				: `existing: a lead identical to item ${lead.item} of execution 1, made ${lead.ageSeconds} s before`,
		),
		...(schedule.sameWebhookAs === undefined ? [] : [`existing: the user's own webhook with the name and URL of item ${schedule.sameWebhookAs} of execution 1`]),
		`execution 1: ${schedule.first.map((item, index) => `item ${index} (${anyItemWords(schedule, item, itemTag(0, index))})`).join('; ')}`,
		...(schedule.second
			? [`execution 2, ${schedule.second.when === 'together' ? 'at the same time' : 'once execution 1 ended'}: ${schedule.second.items.map((item, index) => `item ${index} (${anyItemWords(schedule, item, itemTag(1, index))})`).join('; ')}`]
			: []),
		...(schedule.retried ? ['execution 1 retried from the executions list once it failed'] : []),
		...(schedule.stop ? [`Stop of ${placeWords(schedule.stop)} as it starts`] : []),
		...schedule.faults.map((planned) => `${placeWords(planned)}: ${faultWords(planned.fault)}`),
	];
	return lines.join('\n');
}

/** Gives the schedule its story as what fast-check prints of it. */
function withStory(schedule: WriteSchedule): WriteSchedule {
	return Object.defineProperty(schedule, fc.toStringMethod, { value: () => `\n${story(schedule)}\n`, enumerable: false });
}
