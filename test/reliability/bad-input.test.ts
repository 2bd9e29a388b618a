/**
 * Bad input for every parameter of every operation, through the real engine against the sandbox.
 *
 * The list of parameters comes from the node's description, so a parameter added later without a
 * row here fails the coverage test. Each bad value either is refused before any call, with an
 * error naming the field and the item, or (where the rule is not known before the call) travels
 * encoded, so it cannot change the path or the query's structure: the request the sandbox
 * received shows it.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../sandbox';
import type { RecordedRequest, RunningSandbox } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import { runNode } from '../nodes/support';
import type { NodeRun } from '../nodes/support';
import { operationParameters } from './parameters';

// ---- Bad values -------------------------------------------------------------------------------

const LONG = 'x'.repeat(100_000);
/** Many dots after an @: slow for a naive e-mail pattern, so it also checks the length is read first. */
const LONG_EMAIL = `a@${'.'.repeat(100_000)}b`;
/** Characters that would split or end a query string, or climb a path, if not encoded. */
const INJECTION = 'a&apiKey=stolen&page=9#frag/../x?y=1';
const SLASHES = 'a/../b';

const BAD = {
	empty: '',
	blank: '   ',
	object: { a: 1 },
	list: ['a', 'b'],
	listOfObjects: [{ a: 1 }],
	number: 42,
	phoneNumber: 11987654321,
	text: 'abc',
	boolean: true,
	negative: -3,
	zero: 0,
	fraction: 2.5,
	unknown: 'sideways',
	long: LONG,
	longEmail: LONG_EMAIL,
	slashes: SLASHES,
	dotdot: '..',
	dot: '.',
	injection: INJECTION,
	email: 'maria.example.com',
	phone: 'call me',
	shortPhone: '123',
	spaced: 'lead created',
	ftp: 'ftp://example.com/h',
	notUrl: 'not an address',
	longUrl: `https://example.com/${LONG}`,
	apiKey: 'apiKey',
	apiKeyBrackets: 'APIKEY[]',
	falseText: 'false',
	trueText: 'true',
	yes: 'yes',
	unknownEvent: 'prospection.exploded',
} as const;
type BadName = keyof typeof BAD;

// ---- What must happen ---------------------------------------------------------------------------

interface Context {
	run: NodeRun;
	requests: RecordedRequest[];
	sandbox: RunningSandbox;
}
type Check = (context: Context) => void;
type Expectation = { refuse: string } | { accept: string; check: Check };
type Case = [BadName, Expectation];

const refuse = (field: string): Expectation => ({ refuse: field });
const accept = (why: string, check: Check): Expectation => ({ accept: why, check });

/** Names every query key the node may send for a list, so an injected key stands out. */
const LIST_KEYS = ['apiKey', 'limit', 'page', 'orderBy', 'orderDirection'];

function onlyPath(requests: RecordedRequest[], path: string): void {
	expect(requests.length).toBeGreaterThan(0);
	for (const request of requests) expect(request.path).toBe(path);
}

/** The value reached the service as one query parameter, intact; no other key was added. */
const inQuery =
	(path: string, name: string, expected: string | string[], allowedKeys: string[] = []): Check =>
	({ run, requests }) => {
		expect(run.error).toBeUndefined();
		onlyPath(requests, path);
		expect(requests[0].query[name]).toEqual(expected);
		for (const key of Object.keys(requests[0].query)) {
			expect([...LIST_KEYS, name, ...allowedKeys]).toContain(key);
		}
		expect(requests[0].query.apiKey).toBe('***');
	};

/** The value was not sent: the filter is off. */
const notInQuery =
	(path: string, name: string): Check =>
	({ run, requests }) => {
		expect(run.error).toBeUndefined();
		onlyPath(requests, path);
		expect(requests[0].query[name]).toBeUndefined();
	};

/** The list call was made with this query value (or none); no error. */
const queryValue =
	(path: string, name: string, expected: string | undefined): Check =>
	({ run, requests }) => {
		expect(run.error).toBeUndefined();
		onlyPath(requests, path);
		expect(requests[0].query[name]).toBe(expected);
	};

/** The ID stayed inside one path segment, encoded; the service answered 404 naming it. */
const inPath =
	(method: string, path: string, notFound: RegExp): Check =>
	({ run, requests }) => {
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe(method);
		expect(requests[0].path).toBe(path);
		expect(run.error?.message).toMatch(notFound);
	};

/** A body value: the path is the expected one whatever the value; the check reads the stored record. */
const inBody =
	(method: string, path: string, more?: Check): Check =>
	(context) => {
		const writes = context.requests.filter((request) => request.method === method);
		expect(writes).toHaveLength(1);
		expect(writes[0].path).toBe(path);
		more?.(context);
	};

const succeeded: Check = ({ run }) => expect(run.error).toBeUndefined();

// ---- Parameters of each operation ---------------------------------------------------------------

let sandbox: RunningSandbox;
let ids: { routine: string; lead: string; prospection: string };

const lastLead = () => sandbox.control.leads()[sandbox.control.leads().length - 1];

/** Valid parameters of each operation; the case replaces one of them. */
function baseParameters(resource: string, operation: string): INodeParameters {
	const base: Record<string, INodeParameters> = {
		'lead/create': {
			name: 'Base Lead',
			email: 'base.lead@example.com',
			phone: '+55 11 3333-4444',
		},
		'lead/getMany': { returnAll: false, limit: 5 },
		'routine/getMany': { returnAll: false, limit: 5 },
		'routine/addLead': {
			routineId: { __rl: true, mode: 'id', value: ids.routine },
			leadId: ids.lead,
		},
		'prospection/getMany': { returnAll: false, limit: 5 },
		'prospection/getActivities': { prospectionId: ids.prospection, returnAll: false, limit: 5 },
		'prospection/getConversionRate': {},
		'customField/getMany': { returnAll: false, limit: 5 },
		'conversationThread/getMany': { returnAll: false, limit: 5, filters: { channel: 'EMAIL' } },
		'webhook/getMany': { returnAll: false, limit: 5 },
		'webhook/create': { name: 'Base hook', url: 'https://example.com/hook' },
		'webhook/delete': { webhookId: 'wh_missing' },
	};
	return { resource, operation, ...structuredClone(base[`${resource}/${operation}`]) };
}

/** Siblings of a value inside a fixed collection entry. */
const FIXED_DEFAULTS: Record<string, IDataObject> = {
	'additionalFields.emails.values': { value: 'second@example.com', label: 'trabalho' },
	'additionalFields.phones.values': { value: '+55 11 2222-3333', label: 'comercial' },
	'additionalFields.mobiles.values': { value: '+55 11 98888-7777', label: 'celular' },
	'options.additionalQuery.parameters': { name: 'extra', value: '1' },
};

/** Sets a dotted parameter path to `value`; fixed collections get one entry. */
function setPath(parameters: INodeParameters, path: string, value: unknown): void {
	const parts = path.split('.');
	const fixedKey = Object.keys(FIXED_DEFAULTS).find((key) => path.startsWith(`${key}.`));
	if (fixedKey) {
		const [collection, fixed, group] = fixedKey.split('.');
		const leaf = parts[parts.length - 1];
		const parent = (parameters[collection] ?? {}) as IDataObject;
		parent[fixed] = { [group]: [{ ...FIXED_DEFAULTS[fixedKey], [leaf]: value }] };
		parameters[collection] = parent as INodeParameters;
		return;
	}
	if (path === 'routineId') {
		parameters.routineId = { __rl: true, mode: 'id', value: value as string };
		return;
	}
	let target = parameters as IDataObject;
	for (const part of parts.slice(0, -1)) {
		target[part] = { ...((target[part] as IDataObject | undefined) ?? {}) };
		target = target[part] as IDataObject;
	}
	target[parts[parts.length - 1]] = value as string;
}

// Case families, by the rule a parameter follows.

const textTypes = (field: string): Case[] => [
	['object', refuse(field)],
	['list', refuse(field)],
	['boolean', refuse(field)],
];

const listLimit = (field: string): Case[] => [
	['text', refuse(field)],
	['object', refuse(field)],
	['list', refuse(field)],
	['boolean', refuse(field)],
	['negative', refuse(field)],
	['fraction', refuse(field)],
	['long', refuse(field)],
];

const maxWait = (field: string, ok: Check = succeeded): Case[] => [
	['text', refuse(field)],
	['object', refuse(field)],
	['list', refuse(field)],
	['boolean', refuse(field)],
	['negative', refuse(field)],
	['long', refuse(field)],
	['blank', accept('blank means the default', ok)],
];

/** Answer Timeout: seconds, more than 0. */
const answerTimeout = (ok: Check = succeeded): Case[] => [
	...maxWait('options.timeout', ok),
	['zero', refuse('options.timeout')],
];

const enumeration = (field: string, path: string, name: string, blank: string | undefined): Case[] => [
	['unknown', refuse(field)],
	['object', refuse(field)],
	['list', refuse(field)],
	['number', refuse(field)],
	['boolean', refuse(field)],
	['long', refuse(field)],
	['empty', accept('empty means the default', queryValue(path, name, blank))],
	['blank', accept('blank means the default', queryValue(path, name, blank))],
];

const freeQueryText = (field: string, path: string, name: string, keys: string[] = []): Case[] => [
	...textTypes(field),
	['long', refuse(field)],
	['empty', accept('empty means no filter', notInQuery(path, name))],
	['blank', accept('blank means no filter', notInQuery(path, name))],
	['number', accept('a number is sent as text', inQuery(path, name, '42', keys))],
	['injection', accept('sent encoded as one value', inQuery(path, name, INJECTION, keys))],
	['slashes', accept('sent encoded as one value', inQuery(path, name, SLASHES, keys))],
];

const multiValue = (field: string, path: string, name: string, keys: string[] = []): Case[] => [
	['object', refuse(`${field}[0]`)],
	['listOfObjects', refuse(`${field}[0]`)],
	['boolean', refuse(`${field}[0]`)],
	['long', refuse(`${field}[0]`)],
	['empty', accept('empty means no filter', notInQuery(path, name))],
	['blank', accept('blank means no filter', notInQuery(path, name))],
	['list', accept('a list is sent as repeated values', inQuery(path, name, ['a', 'b'], keys))],
	['number', accept('a number is sent as text', inQuery(path, name, '42', keys))],
	['injection', accept('sent encoded as one value', inQuery(path, name, INJECTION, keys))],
];

const booleanFlag = (field: string, asFalse: Case[1], asTrue?: Case[1]): Case[] => [
	['yes', refuse(field)],
	['object', refuse(field)],
	['list', refuse(field)],
	['number', refuse(field)],
	['falseText', asFalse],
	...(asTrue ? ([['trueText', asTrue]] as Case[]) : []),
];

/** Simplify on leads: a wrong value is refused; "false" keeps the lead as sent, "true" simplifies it. */
const simplifyFlag = (): Case[] =>
	booleanFlag(
		'simplify',
		accept('"false" is false: the lead as the service sent it', ({ run }) =>
			expect(run.items[0].json).toHaveProperty('origin')),
		accept('"true" is true: the simplified lead', ({ run }) =>
			expect(run.items[0].json).not.toHaveProperty('origin')),
	);

/** The node's Dry Run: a wrong value is refused; true / false texts mean Always Dry Run / Always Send. */
const dryRunFlag = (method: string, path: string): Case[] => {
	const sent: Check = ({ requests }) => {
		const writes = requests.filter((request) => request.method === method);
		expect(writes).toHaveLength(1);
		expect(writes[0].path).toBe(path);
	};
	const shown: Check = ({ run, requests }) => {
		expect(run.error).toBeUndefined();
		expect(requests.filter((request) => request.kind === 'write')).toEqual([]);
		expect(run.items[0].json).toMatchObject({ dryRun: true, written: false });
	};
	return [
		['unknown', refuse('dryRun')],
		['yes', refuse('dryRun')],
		['object', refuse('dryRun')],
		['list', refuse('dryRun')],
		['number', refuse('dryRun')],
		['long', refuse('dryRun')],
		['empty', accept('empty means the credential setting (these tests send)', sent)],
		['blank', accept('blank means the credential setting (these tests send)', sent)],
		['falseText', accept('"false" is Always Send', sent)],
		['trueText', accept('"true" is Always Dry Run', shown)],
		['boolean', accept('true is Always Dry Run', shown)],
	];
};

const pathId = (field: string, method: string, path: (id: string) => string, label: RegExp): Case[] => [
	['empty', refuse(field)],
	['blank', refuse(field)],
	['object', refuse(field)],
	['list', refuse(field)],
	['boolean', refuse(field)],
	['long', refuse(field)],
	['dotdot', refuse(field)],
	['dot', refuse(field)],
	['slashes', accept('encoded into one path segment', inPath(method, path('a%2F..%2Fb'), label))],
	['injection', accept('encoded into one path segment', inPath(method, path(encodeURIComponent(INJECTION)), label))],
	['number', accept('a number is an ID as text', inPath(method, path('42'), label))],
];

function listOptionCases(
	endpoint: string,
	order: 'createdAt' | 'none',
	multi: boolean,
	keys: string[] = [],
): Record<string, Case[]> {
	const path = `/api/v1${endpoint}`;
	const cases: Record<string, Case[]> = {
		returnAll: booleanFlag(
			'returnAll',
			accept('"false" is false: Limit applies', queryValue(path, 'limit', '5')),
			accept('"true" is true: every page is read', queryValue(path, 'limit', '100')),
		),
		limit: [
			...listLimit('limit'),
			['empty', accept('empty means the default of 50', queryValue(path, 'limit', '50'))],
			['blank', accept('blank means the default of 50', queryValue(path, 'limit', '50'))],
		],
		'options.pageSize': [
			...listLimit('options.pageSize'),
			['empty', accept('empty means the default', queryValue(path, 'limit', '5'))],
		],
		'options.maxRateLimitWait': maxWait('options.maxRateLimitWait'),
		'options.orderBy': [
			...textTypes('options.orderBy'),
			['long', refuse('options.orderBy')],
			[
				'blank',
				accept(
					'blank means the default order',
					queryValue(path, 'orderBy', order === 'createdAt' ? 'createdAt' : undefined),
				),
			],
			[
				'injection',
				accept('sent encoded; the service answers 400 naming orderBy', ({ run, requests }) => {
					expect(requests).toHaveLength(1);
					expect(requests[0].path).toBe(path);
					expect(requests[0].query.orderBy).toBe(INJECTION);
					expect(requests[0].query.page).toBe('1');
					expect(String((run.error as { description?: string }).description)).toMatch(/^orderBy: /);
				}),
			],
		],
		'options.orderDirection': enumeration(
			'options.orderDirection',
			path,
			'orderDirection',
			order === 'createdAt' ? 'asc' : undefined,
		),
		'options.additionalQuery.parameters.name': [
			['empty', refuse('options.additionalQuery[0].name')],
			['blank', refuse('options.additionalQuery[0].name')],
			['apiKey', refuse('options.additionalQuery[0].name')],
			['apiKeyBrackets', refuse('options.additionalQuery[0].name')],
			...textTypes('options.additionalQuery[0].name'),
			['long', refuse('options.additionalQuery[0].name')],
			['injection', accept('the name is encoded as one key', inQuery(path, INJECTION, '1', keys))],
		],
		'options.additionalQuery.parameters.value': [
			['object', refuse('options.additionalQuery[0].value')],
			['listOfObjects', refuse('options.additionalQuery[0].value[0]')],
			['long', refuse('options.additionalQuery[0].value')],
			['empty', accept('empty is not sent', notInQuery(path, 'extra'))],
			['list', accept('a list is sent as repeated values', inQuery(path, 'extra', ['a', 'b'], keys))],
			['boolean', accept('true is sent as text', inQuery(path, 'extra', 'true', keys))],
			['injection', accept('sent encoded as one value', inQuery(path, 'extra', INJECTION, keys))],
		],
	};
	if (order === 'none') {
		cases['options.orderDirection'] = enumeration('options.orderDirection', path, 'orderDirection', undefined);
	}
	if (multi) {
		cases['options.multiValueFormat'] = enumeration('options.multiValueFormat', path, 'limit', '5');
	}
	return cases;
}

const LEADS = '/api/v1/leads';
const leadName = (expected: unknown): Check =>
	inBody('POST', LEADS, ({ run }) => {
		expect(run.error).toBeUndefined();
		expect(lastLead().name ?? '').toBe(expected ?? '');
	});
const leadHas = (kind: 'emails' | 'phones' | 'mobiles', values: string[]): Check =>
	inBody('POST', LEADS, ({ run }) => {
		expect(run.error).toBeUndefined();
		expect(lastLead()[kind].map((item) => item.value)).toEqual(values);
	});

const emailCases = (field: string, message: string, kind: 'emails', blank: string[]): Case[] => [
	['email', refuse(message)],
	['number', refuse(message)],
	['long', refuse(message)],
	['longEmail', refuse(message)],
	['injection', refuse(message)],
	...textTypes(message),
	['empty', accept('empty means no address here', leadHas(kind, blank))],
	['blank', accept('blank means no address here', leadHas(kind, blank))],
];
const phoneCases = (
	message: string,
	kind: 'phones' | 'mobiles',
	blank: string[],
	withNumber: string[],
): Case[] => [
	['phone', refuse(message)],
	['shortPhone', refuse(message)],
	['long', refuse(message)],
	['injection', refuse(message)],
	...textTypes(message),
	['empty', accept('empty means no number here', leadHas(kind, blank))],
	['blank', accept('blank means no number here', leadHas(kind, blank))],
	['phoneNumber', accept('a number is a phone number', leadHas(kind, withNumber))],
];
const labelCases = (field: string, kind: 'emails' | 'phones' | 'mobiles', index: number): Case[] => [
	...textTypes(field),
	[
		'long',
		accept('labels have no published limit; sent intact', inBody('POST', LEADS, ({ run }) => {
			expect(run.error).toBeUndefined();
			expect(lastLead()[kind][index].label).toBe(LONG);
		})),
	],
	[
		'blank',
		accept('blank means the default label', inBody('POST', LEADS, () => {
			expect(lastLead()[kind][index].label).toBe('Principal');
		})),
	],
];

function table(): Record<string, Record<string, Case[]>> {
	const prospections = '/api/v1/prospections';
	const webhooks = '/api/v1/webhooks';
	const addLeadPath = `/api/v1/routines/${ids.routine}/lead`;
	return {
		'lead/create': {
			dryRun: dryRunFlag('POST', LEADS),
			name: [
				...textTypes('name'),
				['empty', accept('a name is optional', leadName(undefined))],
				['blank', accept('a blank name is not sent', leadName(undefined))],
				['number', accept('a number is sent as text', leadName('42'))],
				['long', accept('no published size limit; sent intact in the body', leadName(LONG))],
				['injection', accept('sent intact in the body', leadName(INJECTION))],
			],
			company: [
				...textTypes('company'),
				['blank', accept('a blank company is not sent', inBody('POST', LEADS, () => expect(lastLead().company ?? '').toBe('')))],
				['long', accept('sent intact in the body', inBody('POST', LEADS, () => expect(lastLead().company).toBe(LONG)))],
			],
			email: emailCases('email', 'email', 'emails', []),
			phone: [...phoneCases('phone', 'phones', [], ['11987654321']), ['number', refuse('phone')]],
			'additionalFields.contactLabel': [
				...textTypes('additionalFields.contactLabel'),
				['blank', accept('blank means the default label', inBody('POST', LEADS, () => expect(lastLead().emails[0].label).toBe('Principal')))],
				['long', accept('sent intact in the body', inBody('POST', LEADS, () => expect(lastLead().emails[0].label).toBe(LONG)))],
			],
			'additionalFields.emails.values.value': emailCases(
				'additionalFields.emails[0].value',
				'additionalFields.emails[0].value',
				'emails',
				['base.lead@example.com'],
			),
			'additionalFields.emails.values.label': labelCases('additionalFields.emails[0].label', 'emails', 1),
			'additionalFields.mobile': phoneCases('additionalFields.mobile', 'mobiles', [], ['11987654321']),
			'additionalFields.mobiles.values.value': phoneCases(
				'additionalFields.mobiles[0].value',
				'mobiles',
				[],
				['11987654321'],
			),
			'additionalFields.mobiles.values.label': labelCases('additionalFields.mobiles[0].label', 'mobiles', 0),
			'additionalFields.phones.values.value': phoneCases(
				'additionalFields.phones[0].value',
				'phones',
				['+55 11 3333-4444'],
				['+55 11 3333-4444', '11987654321'],
			),
			'additionalFields.phones.values.label': labelCases('additionalFields.phones[0].label', 'phones', 1),
			'options.maxRateLimitWait': maxWait('options.maxRateLimitWait'),
			'options.timeout': answerTimeout(),
			'options.lostLeadSearch': [
				...maxWait('options.lostLeadSearch'),
				['zero', accept('0 means one search right after the answer was lost', succeeded)],
			],
			'options.retryWhenNotCreated': booleanFlag(
				'options.retryWhenNotCreated',
				accept('"false" is false', leadName('Base Lead')),
			),
			simplify: simplifyFlag(),
			'options.skipIfExists': booleanFlag(
				'options.skipIfExists',
				accept('"false" is false: no search first', ({ requests }) =>
					expect(requests.map((request) => request.method)).toEqual(['POST'])),
				accept('"true" is true: a search for each contact first', ({ requests }) =>
					expect(requests.map((request) => request.method)).toEqual(['GET', 'GET', 'POST'])),
			),
		},
		'lead/getMany': {
			...listOptionCases('/leads', 'createdAt', true),
			simplify: simplifyFlag(),
			'filters.search': freeQueryText('filters.search', LEADS, 'search'),
			'filters.status': freeQueryText('filters.status', LEADS, 'status'),
			'filters.sourceIds': multiValue('filters.sourceIds', LEADS, 'sourceIds'),
			'filters.routineIds': multiValue('filters.routineIds', LEADS, 'routineIds'),
			'filters.createdByIds': multiValue('filters.createdByIds', LEADS, 'createdByIds'),
		},
		'routine/getMany': {
			...listOptionCases('/routines', 'none', true),
			'filters.status': freeQueryText('filters.status', '/api/v1/routines', 'status'),
			'filters.priorities': multiValue('filters.priorities', '/api/v1/routines', 'priorities'),
			'filters.acquisitionTypes': multiValue(
				'filters.acquisitionTypes',
				'/api/v1/routines',
				'acquisitionTypes',
			),
		},
		'routine/addLead': {
			dryRun: dryRunFlag('POST', addLeadPath),
			routineId: pathId(
				'routineId',
				'POST',
				(id) => `/api/v1/routines/${id}/lead`,
				/^Routine ".*" or lead ".*" was not found \(404\)$/,
			),
			leadId: [
				['empty', refuse('leadId')],
				['blank', refuse('leadId')],
				...textTypes('leadId'),
				['long', refuse('leadId')],
				['slashes', accept('sent intact in the body; the path is unchanged', inBody('POST', addLeadPath))],
				['number', accept('a number is an ID as text', inBody('POST', addLeadPath))],
			],
			responsibleId: [
				...textTypes('responsibleId'),
				['long', refuse('responsibleId')],
				['blank', accept('blank means no responsible', inBody('POST', addLeadPath, succeeded))],
				['slashes', accept('sent intact in the body; the path is unchanged', inBody('POST', addLeadPath, succeeded))],
			],
			'options.maxRateLimitWait': maxWait('options.maxRateLimitWait'),
			'options.timeout': answerTimeout(),
		},
		'prospection/getMany': {
			...listOptionCases('/prospections', 'createdAt', true),
			'filters.status': [
				...enumeration('filters.status', prospections, 'status', undefined),
				['slashes', refuse('filters.status')],
			],
			'filters.routineIds': multiValue('filters.routineIds', prospections, 'routineIds'),
			'filters.leadId': freeQueryText('filters.leadId', prospections, 'leadId'),
		},
		'prospection/getActivities': {
			...listOptionCases(`/prospections/${ids.prospection}/activities`, 'none', false),
			prospectionId: pathId(
				'prospectionId',
				'GET',
				(id) => `/api/v1/prospections/${id}/activities`,
				/^Prospection ".*" was not found \(404\)$/,
			),
		},
		'prospection/getConversionRate': {
			'filters.leadId': freeQueryText('filters.leadId', prospections, 'leadId', ['status']),
			'filters.routineIds': multiValue('filters.routineIds', prospections, 'routineIds', ['status']),
			'options.maxRateLimitWait': maxWait('options.maxRateLimitWait'),
			'options.multiValueFormat': enumeration('options.multiValueFormat', prospections, 'limit', '1'),
			'options.additionalQuery.parameters.name': [
				['empty', refuse('options.additionalQuery[0].name')],
				['apiKey', refuse('options.additionalQuery[0].name')],
				...textTypes('options.additionalQuery[0].name'),
				['long', refuse('options.additionalQuery[0].name')],
				['injection', accept('the name is encoded as one key', inQuery(prospections, INJECTION, '1', ['status']))],
			],
			'options.additionalQuery.parameters.value': [
				['object', refuse('options.additionalQuery[0].value')],
				['long', refuse('options.additionalQuery[0].value')],
				['injection', accept('sent encoded as one value', inQuery(prospections, 'extra', INJECTION, ['status']))],
			],
		},
		'customField/getMany': listOptionCases('/custom-fields', 'none', false),
		'conversationThread/getMany': {
			...listOptionCases('/conversations/threads', 'none', false, ['channel']),
			'filters.channel': [
				...enumeration('filters.channel', '/api/v1/conversations/threads', 'channel', undefined),
				['injection', refuse('filters.channel')],
			],
			'options.channelParameterName': [
				['empty', refuse('options.channelParameterName')],
				['blank', refuse('options.channelParameterName')],
				['apiKey', refuse('options.channelParameterName')],
				['apiKeyBrackets', refuse('options.channelParameterName')],
				...textTypes('options.channelParameterName'),
				['long', refuse('options.channelParameterName')],
				[
					'injection',
					accept('the name is encoded as one key', inQuery('/api/v1/conversations/threads', INJECTION, 'EMAIL')),
				],
			],
		},
		'webhook/getMany': {
			returnAll: booleanFlag('returnAll', accept('"false" is false', succeeded)),
			limit: listLimit('limit'),
			'options.maxRateLimitWait': maxWait('options.maxRateLimitWait'),
		},
		'webhook/create': {
			dryRun: dryRunFlag('POST', webhooks),
			name: [
				['empty', refuse('name')],
				['blank', refuse('name')],
				...textTypes('name'),
				['long', accept('no published size limit; sent intact', inBody('POST', webhooks, () =>
					expect(sandbox.control.webhooks()[0].name).toBe(LONG)))],
				['injection', accept('sent intact in the body', inBody('POST', webhooks, () =>
					expect(sandbox.control.webhooks()[0].name).toBe(INJECTION)))],
			],
			url: [
				['empty', refuse('url')],
				['blank', refuse('url')],
				['ftp', refuse('url')],
				['notUrl', refuse('url')],
				['number', refuse('url')],
				['longUrl', refuse('url')],
				...textTypes('url'),
			],
			events: [
				['empty', refuse('events')],
				['object', refuse('events[0]')],
				['boolean', refuse('events[0]')],
				['spaced', refuse('events[0]')],
				['slashes', refuse('events[0]')],
				['long', refuse('events[0]')],
				['unknownEvent', accept('other event kinds exist; sent as typed', inBody('POST', webhooks, () =>
					expect(sandbox.control.webhooks()[0].events).toEqual(['prospection.exploded'])))],
			],
			'additionalFields.otherEvents': [
				['object', refuse('additionalFields.otherEvents[0]')],
				['spaced', refuse('additionalFields.otherEvents[0]')],
				['slashes', refuse('additionalFields.otherEvents[0]')],
				['long', refuse('additionalFields.otherEvents[0]')],
				['blank', accept('blank adds nothing', inBody('POST', webhooks, () =>
					expect(sandbox.control.webhooks()[0].events).toEqual(['prospection.won', 'prospection.lost'])))],
			],
			'options.maxRateLimitWait': maxWait('options.maxRateLimitWait'),
			'options.timeout': answerTimeout(),
		},
		'webhook/delete': {
			dryRun: dryRunFlag('DELETE', '/api/v1/webhooks/wh_missing'),
			webhookId: pathId('webhookId', 'DELETE', (id) => `/api/v1/webhooks/${id}`, /^Webhook ".*" was not found \(404\)$/),
			'options.maxRateLimitWait': maxWait(
				'options.maxRateLimitWait',
				inPath('DELETE', '/api/v1/webhooks/wh_missing', /^Webhook "wh_missing" was not found \(404\)$/),
			),
			'options.timeout': answerTimeout(
				inPath('DELETE', '/api/v1/webhooks/wh_missing', /^Webhook "wh_missing" was not found \(404\)$/),
			),
		},
	};
}

// ---- Running a case ---------------------------------------------------------------------------

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const apiRequests = () =>
	sandbox.control.requests().filter((request) => request.path.startsWith('/api/v1'));

async function runCase(
	resource: string,
	operation: string,
	path: string,
	bad: BadName,
	expectation: Expectation,
): Promise<void> {
	const parameters = baseParameters(resource, operation);
	setPath(parameters, path, '={{ $json.bad }}');
	const connection = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
	const value = BAD[bad];
	if ('refuse' in expectation) {
		// Two items, so the error must name the right one; Continue On Fail shows both.
		const run = await runNode(parameters, {
			...connection,
			continueOnFail: true,
			inputItems: [{ bad: value }, { bad: value }],
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.error ?? '(no error)')).toHaveLength(2);
		run.items.forEach((item, index) => {
			const message = String(item.json.error);
			expect(message).toMatch(
				new RegExp(`^${escape(expectation.refuse)}: \\S.* \\(item ${index}\\)$`, 's'),
			);
			expect(message.length).toBeLessThan(400);
			expect(item.json.itemIndex).toBe(index);
			expect(String(item.json.description)).toMatch(/nothing was sent to the service/);
		});
		expect(apiRequests()).toEqual([]);
		return;
	}
	const run = await runNode(parameters, { ...connection, inputItems: [{ bad: value }] });
	expectation.check({ run, requests: apiRequests(), sandbox });
	// Whatever happened, it was an answer a user can read, not a crash of the node.
	expect(run.error?.message ?? '').not.toMatch(/TypeError|is not a function|Cannot read/);
}

// ---- The suite ------------------------------------------------------------------------------

beforeAll(async () => {
	sandbox = await startSandbox({
		rateLimit: false,
		dataset: { leads: 8, routines: 3, prospections: 6, customFields: 3, threads: 6, activitiesPerProspection: 2 },
	});
	const routine = sandbox.control.routines()[0];
	ids = {
		routine: routine.id,
		lead: sandbox.control.leads()[0].id,
		prospection: sandbox.control.prospections()[0].id,
	};
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.control.reset();
	resetBudgets();
});

const operations = operationParameters();

it('the table covers every parameter of every operation the node describes, and nothing else', () => {
	// The table needs the sandbox's ids only for paths; placeholders suffice to list its keys.
	const saved = ids;
	ids = ids ?? { routine: 'r', lead: 'l', prospection: 'p' };
	const rows = table();
	ids = saved;
	const described = Object.fromEntries(
		operations.map((entry) => [`${entry.resource}/${entry.operation}`, [...entry.paths].sort()]),
	);
	const tabled = Object.fromEntries(
		Object.entries(rows).map(([key, parameters]) => [key, Object.keys(parameters).sort()]),
	);
	expect(tabled).toEqual(described);
	for (const parameters of Object.values(rows)) {
		for (const cases of Object.values(parameters)) expect(cases.length).toBeGreaterThan(0);
	}
});

describe.each(operations.map((entry) => [`${entry.resource} ${entry.operation}`, entry] as const))(
	'%s',
	(_title, entry) => {
		it.each(entry.paths)('%s: every bad value is refused before any call, or travels encoded', async (path) => {
			const cases = table()[`${entry.resource}/${entry.operation}`][path];
			for (const [bad, expectation] of cases) {
				sandbox.control.reset();
				resetBudgets();
				try {
					await runCase(entry.resource, entry.operation, path, bad, expectation);
				} catch (error) {
					(error as Error).message = `${path} = ${bad}: ${(error as Error).message}`;
					throw error;
				}
			}
		});
	},
);

describe('resource and operation', () => {
	it.each([
		['an unknown operation', { resource: 'lead', operation: 'explode' }, /^The operation "explode" of resource "lead" is not known \(item 0\)$/],
		['an unknown resource', { resource: 'planet', operation: 'getMany' }, /^The resource "planet" is not known \(item 0\)$/],
	])('%s is refused before any call', async (_name, parameters, message) => {
		const run = await runNode(parameters, { baseUrl: sandbox.url, apiKey: sandbox.apiKey });
		expect(run.error?.message).toMatch(message);
		expect(apiRequests()).toEqual([]);
	});
});
