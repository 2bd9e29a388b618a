import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { writeOptions } from '../common.descriptions';
import { dryRunProperties } from '../dryRun.description';
import { DEFAULT_LOST_LEAD_SEARCH_SECONDS } from './lostLead';
import { simplifyLeadProperties } from './simplify';

/** Lead Create's parameters, as the editor shows them; what they do is create.operation.ts. */

const text = (displayName: string, name: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({ displayName, name, type: 'string', default: '', ...extra });

/** A list of contacts of one kind (Emails, Phones, Mobiles), each a value and its label. */
const contactCollection = (displayName: string, name: string, placeholder: string): INodeProperties => ({
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
			values: [text('Value', 'value', { placeholder }), text('Label', 'label', { default: 'Principal' })],
		},
	],
});

const properties: INodeProperties[] = [
	{ displayName: 'A lead needs at least one contact: an email, a phone or a mobile', name: 'contactNotice', type: 'notice', default: '' },
	text('Name', 'name', { description: 'Name of the contact' }),
	text('Company', 'company', { description: 'Company of the contact' }),
	text('Email', 'email', { placeholder: 'name@email.com', description: 'Email address of the lead. More addresses can be added under Additional Fields.' }),
	text('Phone', 'phone', { placeholder: '+55 11 3333-4444', description: 'Phone number of the lead. More numbers can be added under Additional Fields.' }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			text('Contact Label', 'contactLabel', { default: 'Principal', description: 'Label sent with Email, Phone and Mobile' }),
			contactCollection('Emails', 'emails', 'name@email.com'),
			text('Mobile', 'mobile', { placeholder: '+55 11 99999-8888', description: 'Mobile number of the lead' }),
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
				'Whether to send the lead once more when the outcome of its create is unknown and every search ran and found nothing (never when a search failed, nor when the service\'s answers carry no Date header to tell its clock). A service that creates it even later then ends with two leads. Off, the item ends with an error saying the lead may exist. A create that never reached the service (connection refused, unknown host) is sent once more either way.',
		},
		{
			displayName: 'Skip If a Lead With This Contact Exists',
			name: 'skipIfExists',
			type: 'boolean',
			default: false,
			description:
				'Whether to search for a lead with any of its contacts (and its name, when given) first, and return it instead of creating another. While an earlier create for the contact may still be committed in this n8n (it ended "may exist", or was stopped), the item looks for that lead rather than create a second one.',
		},
	]),
	...dryRunProperties,
];

const displayOptions = { show: { resource: ['lead'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);
