import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { unwrapRecord } from '../../shared/records';
import {
	accountKey,
	asNodeError,
	isNotSentError,
	isResponseLostError,
	prospectingApiRequest,
} from '../../transport';
import { cancelSignal, pause } from '../../transport/pause';
import { writeOptions } from '../common.descriptions';
import { guardWrite } from '../dryRun';
import { dryRunProperties } from '../dryRun.description';
import { inputError } from '../inputError';
import { booleanValue, secondsOption, textValue, writeSettings } from '../parameters';
import type { LeadContacts } from './contacts';
import { withKeysHeld } from './contactLock';
import { collectContacts, contactKeys, findExistingLead } from './contacts';
import { DEFAULT_LOST_LEAD_SEARCH_SECONDS, lookForLostLead } from './lostLead';
import { mayExistError } from './mayExist';
import { simplifyLead, simplifyLeadProperties, simplifyLeadsWanted } from './simplify';

const contactCollection = (
	displayName: string,
	name: string,
	placeholder: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: `Add ${displayName.replace(/s$/, '')}`,
	default: {},
	options: [
		{
			displayName: displayName.replace(/s$/, ''),
			name: 'values',
			values: [
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					placeholder,
				},
				{
					displayName: 'Label',
					name: 'label',
					type: 'string',
					default: 'Principal',
				},
			],
		},
	],
});

const properties: INodeProperties[] = [
	{
		displayName: 'A lead needs at least one contact: an email, a phone or a mobile',
		name: 'contactNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Name of the contact',
	},
	{
		displayName: 'Company',
		name: 'company',
		type: 'string',
		default: '',
		description: 'Company of the contact',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Email address of the lead. More addresses can be added under Additional Fields.',
	},
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		placeholder: '+55 11 3333-4444',
		description: 'Phone number of the lead. More numbers can be added under Additional Fields.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Contact Label',
				name: 'contactLabel',
				type: 'string',
				default: 'Principal',
				description: 'Label sent with Email, Phone and Mobile',
			},
			contactCollection('Emails', 'emails', 'name@email.com'),
			{
				displayName: 'Mobile',
				name: 'mobile',
				type: 'string',
				default: '',
				placeholder: '+55 11 99999-8888',
				description: 'Mobile number of the lead',
			},
			contactCollection('Mobiles', 'mobiles', '+55 11 99999-8888'),
			contactCollection('Phones', 'phones', '+55 11 3333-4444'),
		],
	},
	...simplifyLeadProperties,
	writeOptions([
		{
			displayName: 'Look for a Lost Lead For (Seconds)',
			name: 'lostLeadSearch',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_LOST_LEAD_SEARCH_SECONDS,
			description:
				'When the answer to the create is lost (timeout, dropped connection, 502/504), how long to keep searching for the lead: a slow service may create it after the answer timed out. Searches are spread over this time; when none finds the lead, the item ends with an error saying it may exist.',
		},
		{
			displayName: 'Send Again If Not Found (May Duplicate)',
			name: 'retryWhenNotCreated',
			type: 'boolean',
			default: false,
			description:
				'Whether to send the lead once more when its answer was lost and no search found it. A service that creates it even later then ends with two leads. Off, the item ends with an error saying the lead may exist. A create that never reached the service (connection refused, unknown host) is sent once more either way.',
		},
		{
			displayName: 'Skip If a Lead With This Contact Exists',
			name: 'skipIfExists',
			type: 'boolean',
			default: false,
			description:
				'Whether to search for a lead with the same contact (and name, when given) first, and return it instead of creating another',
		},
	]),
	...dryRunProperties,
];

const displayOptions = { show: { resource: ['lead'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Pause before sending again a create that never reached the service (a refused connection may be a restart). */
const NOT_SENT_PAUSE_MS = 1000;

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const name = textValue.call(this, i, 'name', this.getNodeParameter('name', i, ''));
	const company = textValue.call(this, i, 'company', this.getNodeParameter('company', i, ''));
	const additionalFields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const contacts: LeadContacts = collectContacts.call(this, i, {
		email: this.getNodeParameter('email', i, ''),
		phone: this.getNodeParameter('phone', i, ''),
		additionalFields,
	});
	if (contacts.emails.length + contacts.phones.length + contacts.mobiles.length === 0) {
		throw inputError(
			this.getNode(),
			i,
			'email / phone / mobile',
			'a lead needs at least one contact: fill Email, Phone, or a contact under Additional Fields',
		);
	}

	const settings = writeSettings.call(this, i);
	const searchWindowMs =
		secondsOption.call(this, i, options, 'lostLeadSearch', DEFAULT_LOST_LEAD_SEARCH_SECONDS) * 1000;
	const skipIfExists = booleanValue.call(
		this,
		i,
		'options.skipIfExists',
		options.skipIfExists,
		false,
	);
	const retryWhenNotCreated = booleanValue.call(
		this,
		i,
		'options.retryWhenNotCreated',
		options.retryWhenNotCreated,
		false,
	);
	const body: IDataObject = {};
	if (name) body.name = name;
	if (company) body.company = company;
	if (contacts.emails.length) body.emails = contacts.emails;
	if (contacts.phones.length) body.phones = contacts.phones;
	if (contacts.mobiles.length) body.mobiles = contacts.mobiles;
	const request = { method: 'POST' as const, path: '/leads', body };
	const simplify = simplifyLeadsWanted.call(this, i);
	const output = (lead: IDataObject): INodeExecutionData[] => [
		{ json: simplify ? simplifyLead(lead) : lead },
	];

	const searchAndCreate = async (): Promise<INodeExecutionData[]> => {
		if (skipIfExists) {
			const existing = await findExistingLead.call(this, contacts, name, settings);
			if (existing) {
				// Nothing would be written for real either; a dry run still says so in its own shape.
				const dryRun = await guardWrite.call(this, {
					operation: 'Lead Create',
					itemIndex: i,
					request,
					noRequest: true,
					wouldReturn: existing,
					message: `Dry run: nothing was written. A lead with this contact exists (id ${String(existing.id ?? '?')}), so Lead Create would send nothing and return it (in wouldReturn).`,
				});
				return dryRun ?? output(existing);
			}
		}

		const dryRun = await guardWrite.call(this, {
			operation: 'Lead Create',
			itemIndex: i,
			request,
		});
		if (dryRun) return dryRun;

		const create = async () =>
			unwrapRecord(
				await prospectingApiRequest.call(this, 'POST', '/leads', {
					...settings,
					body,
				}),
			) ?? {};

		const node = this.getNode();
		// An answer that is lost leaves the outcome unknown: the service may have created the lead, or may still
		// create it (a slow commit). Only an error that proves the request never reached the service, or the
		// user's own choice after the searches found nothing, sends it once more.
		const tried: string[] = [];
		for (let send = 1; ; send++) {
			try {
				return output(await create());
			} catch (error) {
				if (isNotSentError(error) && send < 2) {
					tried.push(`POST /leads did not reach the service (${asNodeError(node, error).message})`);
					await pause(NOT_SENT_PAUSE_MS, cancelSignal(this));
					continue;
				}
				if (!isResponseLostError(error)) throw asNodeError(node, error);
				// The service has no duplicate protection: look for the lead long enough for a slow commit to show.
				const search = await lookForLostLead.call(this, contacts, name, settings, searchWindowMs);
				if (search.lead) return output(search.lead);
				tried.push(
					`POST /leads sent${send > 1 ? ' again' : ''}; its answer was lost (${asNodeError(node, error).message})`,
				);
				const sendAgain = retryWhenNotCreated && send < 2 && search.lastFailure === undefined;
				if (!sendAgain) throw mayExistError(node, error, { contacts, tried, search, itemIndex: i });
			}
		}
	};
	if (!skipIfExists) return await searchAndCreate();
	// One search-and-create at a time per contact of this account: a form posted twice at once gives one lead.
	const account = await accountKey(this);
	return await withKeysHeld(
		contactKeys(contacts).map((contact) => `${account}|${contact}`),
		searchAndCreate,
	);
}
