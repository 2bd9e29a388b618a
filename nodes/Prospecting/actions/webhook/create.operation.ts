import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { EVENT_KIND_RULE, isEventKind } from '../../shared/eventKinds';
import { unwrapRecord } from '../../shared/records';
import { listWebhooks } from '../../shared/webhooks';
import { asNodeError, isResponseLostError, prospectingApiRequest, withNote } from '../../transport';
import { additionalFieldsCollection } from '../common.descriptions';
import { guardWrite } from '../dryRun';
import { writeOperationDescription } from '../dryRun.description';
import { inputError } from '../inputError';
import { multiValues, quoted, requireValue, textValue, writeSettings } from '../parameters';

const properties: INodeProperties[] = [
	{
		displayName:
			'The secret that signs deliveries is returned only in this answer and never again: store it now (for example in a credential)',
		name: 'secretNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'Name of the webhook',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/webhook',
		description: 'Address that receives the deliveries by POST',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		default: ['prospection.won', 'prospection.lost'],
		description: 'Event kinds to receive',
		options: [
			{ name: 'Prospection Lost', value: 'prospection.lost' },
			{ name: 'Prospection Won', value: 'prospection.won' },
		],
	},
	additionalFieldsCollection([
		{
			displayName: 'Other Events',
			name: 'otherEvents',
			type: 'string',
			default: '',
			placeholder: 'prospection.created',
			description: 'Event kinds not in the list, separated by commas',
		},
	]),
];

/** Longer addresses are refused by most servers and proxies. */
const MAX_URL_LENGTH = 2000;

export const description = writeOperationDescription('webhook', 'create', properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const name = requireValue.call(this, i, 'name', textValue.call(this, i, 'name', this.getNodeParameter('name', i, '')));
	const url = requireValue.call(
		this,
		i,
		'url',
		textValue.call(this, i, 'url', this.getNodeParameter('url', i, ''), MAX_URL_LENGTH),
	);
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
		throw inputError(
			this.getNode(),
			i,
			'url',
			`"${url.slice(0, 120)}" is not an http:// or https:// address`,
		);
	}
	const additionalFields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const eventKinds = (field: string, value: unknown) =>
		multiValues.call(this, i, field, value).map((event, index) => {
			if (!isEventKind(event)) {
				throw inputError(
					this.getNode(),
					i,
					`${field}[${index}]`,
					`${quoted(event)} is not an event kind: ${EVENT_KIND_RULE}`,
				);
			}
			return event;
		});
	const events = [
		...eventKinds('events', this.getNodeParameter('events', i, [])),
		...eventKinds('additionalFields.otherEvents', additionalFields.otherEvents),
	].filter((event, index, all) => all.indexOf(event) === index);
	if (events.length === 0)
		throw inputError(this.getNode(), i, 'events', 'choose at least one event');
	const settings = writeSettings.call(this, i);

	const dryRun = await guardWrite.call(this, {
		operation: 'Webhook Create',
		itemIndex: i,
		request: { method: 'POST', path: '/webhooks', body: { name, url, events } },
	});
	if (dryRun) return dryRun;

	try {
		const response = await prospectingApiRequest.call(this, 'POST', '/webhooks', {
			...settings,
			body: { name, url, events },
		});
		return [{ json: unwrapRecord(response) ?? {} }];
	} catch (error) {
		if (!isResponseLostError(error)) throw asNodeError(this.getNode(), error);
		// A second webhook would double every delivery, and the secret cannot be read again: never sent again,
		// and the item says what a read of the list shows.
		let note: string;
		try {
			const existing = (await listWebhooks.call(this, settings)).find(
				(webhook) => webhook.url === url && webhook.name === name,
			);
			note = existing
				? `The webhook was created (id ${String(existing.id)}), but its secret was in the lost answer and cannot be read again. Delete it and create it once more.`
				: 'No webhook with this name and URL is listed yet, but the service may still create it (a slow service can apply a write after its answer was lost). Check with Webhook → Get Many before running this item again: a second webhook would double every delivery.';
		} catch (readError) {
			note = `The webhook list could not be read (${asNodeError(this.getNode(), readError).message}), so whether the webhook was created is not known. Check with Webhook → Get Many before running this item again: a second webhook would double every delivery.`;
		}
		throw withNote(this.getNode(), error, note);
	}
}
