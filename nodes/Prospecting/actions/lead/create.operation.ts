import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { unwrapRecord } from '../../shared/records';
import type { ProspectingRequestOptions } from '../../transport/request';
import { accountKey } from '../../helpers/account';
import { asNodeError, isResponseLostError, isUnreachableError, withNote } from '../../helpers/errors';
import { prospectingApiRequest } from '../../transport/request';
import { cancelSignal, pause } from '../../transport/pause';
import { writeOptions } from '../common.descriptions';
import { guardWrite } from '../dryRun';
import { dryRunProperties } from '../dryRun.description';
import { onceInExecution } from '../helpers/writeOnce';
import { inputError } from '../inputError';
import { booleanValue, secondsOption, textValue, writeSettings } from '../parameters';
import type { LeadContacts } from './contacts';
import { withKeysHeld } from './contactLock';
import { collectContacts, contactKeys, findExistingLead, firstContact, searchByContact } from './contacts';
import type { LostLeadSearch } from './lostLead';
import { DEFAULT_LOST_LEAD_SEARCH_SECONDS, lookForLostLead } from './lostLead';
import { mayExistError, triedLines } from './mayExist';
import { checkBeforeRetry } from './retryCheck';
import type { SentLead } from './sentLead';
import { isTheLeadSent } from './sentLead';
import { ServiceClock } from './serviceClock';
import { simplifyLead, simplifyLeadProperties, simplifyLeadsWanted } from './simplify';
import type { Unresolved } from './unresolved';
import { earlierSendOf, markUnresolved, unresolvedOf } from './unresolved';

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
				'When the outcome of the create is unknown (a timeout, a dropped connection, any 5xx answer, a 2xx without the lead), how long to keep searching for the lead before the item goes on: a slow service may create it after its answer was lost. Searches are spread over this time and only a lead created since the send, matching every field sent, counts; when none finds it, the item ends with an error saying it may exist.',
		},
		{
			displayName: 'Send Again If Not Found (May Duplicate)',
			name: 'retryWhenNotCreated',
			type: 'boolean',
			default: false,
			description:
				'Whether to send the lead once more when the outcome of its create is unknown and every search ran and found nothing (never when a search failed). A service that creates it even later then ends with two leads. Off, the item ends with an error saying the lead may exist. A create that never reached the service (connection refused, unknown host) is sent once more either way.',
		},
		{
			displayName: 'Skip If a Lead With This Contact Exists',
			name: 'skipIfExists',
			type: 'boolean',
			default: false,
			description:
				'Whether to search for a lead with the same contact (and name, when given) first, and return it instead of creating another. While an earlier create for the contact may still be committed (it ended "may exist" in this n8n), the item ends "may exist" too rather than create a second lead.',
		},
	]),
	...dryRunProperties,
];

const displayOptions = { show: { resource: ['lead'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Pause before sending again a create that never reached the service (a refused connection may be a restart). */
const NOT_SENT_PAUSE_MS = 1000;

/** Whether the lead of an item was created by this node or already there (Skip If Exists, a lost answer's search, a retry). */
export type LeadOutcome = 'created' | 'found';

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const name = textValue.call(this, i, 'name', this.getNodeParameter('name', i));
	const company = textValue.call(this, i, 'company', this.getNodeParameter('company', i));
	const additionalFields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const contacts: LeadContacts = collectContacts.call(this, i, {
		email: this.getNodeParameter('email', i),
		phone: this.getNodeParameter('phone', i),
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
	const sent: SentLead = { name, company, ...contacts };
	const contact = firstContact(contacts);
	const simplify = simplifyLeadsWanted.call(this, i);
	const output = (lead: IDataObject, outcome: LeadOutcome): INodeExecutionData[] => [
		{ json: { ...(simplify ? simplifyLead(lead) : lead), outcome } },
	];
	const node = this.getNode();
	const account = await accountKey(this);
	const keys = contactKeys(contacts).map((key) => `${account}|${key}`);
	const clock = new ServiceClock();
	const searchSettings: ProspectingRequestOptions = { ...settings, onServiceClock: clock.observe };

	/** One look for the lead this item sent: created at or after the send, matching every field sent. */
	const findSent = (earliestCreatedAt: () => number) => async () =>
		(await searchByContact.call(this, contacts, searchSettings)).find((record) =>
			isTheLeadSent(record, sent, earliestCreatedAt()),
		);

	/** Ends the item "may exist" and keeps its contacts unresolved for one more window (Skip If Exists). */
	const mayExist = (
		lost: unknown,
		tried: string[],
		search: LostLeadSearch,
		doubt: Pick<Unresolved, 'sentAt' | 'earliestCreatedAt'>,
	) => {
		markUnresolved(keys, doubt, searchWindowMs);
		return mayExistError(node, lost, { contact, tried, search, itemIndex: i });
	};

	const send = async (): Promise<INodeExecutionData[]> => {
		const createOptions: ProspectingRequestOptions = {
			...settings,
			body,
			expect: 'recordWithId',
			onServiceClock: clock.observe,
		};
		// An unknown outcome leaves the lead in doubt: the service may have created it, or may still (a slow commit).
		// Only an error that proves the request never reached the service, or the user's own choice after every
		// search found nothing, sends it once more.
		const tried: string[] = [];
		for (let attempt = 1; ; attempt++) {
			const sentAt = Date.now();
			try {
				const created = unwrapRecord(await prospectingApiRequest.call(this, 'POST', '/leads', createOptions)) ?? {};
				return output(created, 'created');
			} catch (error) {
				// A service that could not be reached at all gets the lead once more, after a pause. Other creates proven
				// not sent (held too long by the rate limit, a Base URL the node refuses) would fail the same way again.
				if (isUnreachableError(error) && attempt < 2) {
					tried.push(`POST /leads did not reach the service (${asNodeError(node, error).message})`);
					await pause(NOT_SENT_PAUSE_MS, cancelSignal(this));
					continue;
				}
				// Proven not applied (refused, not sent): the item fails, saying what was tried before.
				if (!isResponseLostError(error)) throw withNote(node, error, triedLines(tried).join('\n'));
				// The service has no duplicate protection: look for the lead long enough for a slow commit to show,
				// taking only one created since this send (an older lead with the contact is not this one).
				const earliest = () => clock.earliestCreatedAt(sentAt);
				// The item is held here: say so, since a 5xx used to fail at once.
				this.logger.info(
					`Prospecting: the outcome of the create for ${contact} is unknown (${asNodeError(node, error).message}); looking for its lead for up to ${searchWindowMs / 1000} s before the item goes on (item ${i})`,
				);
				const search = await lookForLostLead.call(this, {
					contact,
					find: findSent(earliest),
					windowMs: searchWindowMs,
					deadlineAt: settings.deadlineAt,
				});
				if (search.lead) {
					return output(search.lead, 'found');
				}
				tried.push(
					`POST /leads sent${attempt > 1 ? ' again' : ''}; its outcome is unknown (${asNodeError(node, error).message})`,
				);
				// A failed search may have missed the lead: sending again then could make a second one.
				const sendAgain = retryWhenNotCreated && attempt < 2 && search.failures.length === 0;
				if (!sendAgain) throw mayExist(error, tried, search, { sentAt, earliestCreatedAt: earliest() });
			}
		}
	};

	/** A later try of this node (n8n's Retry On Fail) after this item's outcome stayed unknown: look, never send. */
	const lookAgain = async (): Promise<INodeExecutionData[]> => {
		const doubt = earlierSendOf(keys);
		// Without the earlier try's record (gone from memory), only a lead created from now on could be the one sent.
		const earliestCreatedAt = doubt?.earliestCreatedAt ?? Date.now();
		const search = await lookForLostLead.call(this, {
			contact,
			find: findSent(() => earliestCreatedAt),
			windowMs: searchWindowMs,
			from: doubt?.sentAt,
			deadlineAt: settings.deadlineAt,
		});
		if (search.lead) {
			return output(search.lead, 'found');
		}
		const tried = ['an earlier try of this node (Retry On Fail) sent POST /leads; its outcome stayed unknown'];
		throw mayExist(undefined, tried, search, { sentAt: doubt?.sentAt ?? Date.now(), earliestCreatedAt });
	};

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
					message: `Dry run: nothing was written. A lead with this contact exists (id ${String(existing.id)}), so Lead Create would send nothing and return it (in wouldReturn).`,
				});
				return dryRun ?? output(existing, 'found');
			}
			// An earlier create for this contact ended "may exist" and its lead may still be committed: creating
			// another now could make a second lead.
			const doubt = unresolvedOf(keys);
			if (doubt) {
				const tried = [
					`an earlier execution in this n8n sent POST /leads for ${contact} ${Math.round((Date.now() - doubt.sentAt) / 1000)} s ago; its outcome is unknown, so this one did not send`,
				];
				const searchedLine = `Skip If a Lead With This Contact Exists searched (GET /leads?search=${contact}) and found no lead yet; the earlier create may still be committed, so this contact is left in doubt for ${Math.ceil((doubt.until - Date.now()) / 1000)} s more.`;
				throw mayExistError(node, undefined, { contact, tried, itemIndex: i, searchedLine });
			}
		}

		const dryRun = await guardWrite.call(this, {
			operation: 'Lead Create',
			itemIndex: i,
			request,
		});
		if (dryRun) return dryRun;

		// Retried from the executions list: the failed execution may have created this lead. Look before sending
		// (Skip If Exists has just looked, more widely: any lead with one of the contacts).
		if (!skipIfExists && this.getMode() === 'retry') {
			const existing = await checkBeforeRetry.call(this, { contacts, sent, settings: searchSettings });
			if (existing) return output(existing, 'found');
		}
		return await send();
	};

	const once = async () =>
		await onceInExecution.call(this, i, request, searchAndCreate, lookAgain);
	if (!skipIfExists) return await once();
	// One search-and-create at a time per contact of this account: a form posted twice at once gives one lead.
	return await withKeysHeld(keys, once);
}
