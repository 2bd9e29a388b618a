import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { EVENT_KIND_RULE, isEventKind } from '../../shared/eventKinds';
import { unwrapRecord } from '../../shared/records';
import { listWebhooks, theWebhookSent } from '../../shared/webhooks';
import { asNodeError, withNote } from '../../helpers/nodeError';
import { prospectingApiRequest } from '../../transport/request';
import { isOutcomeUnknown, withOutcome } from '../../helpers/outcome';
import { additionalFieldsCollection } from '../common.descriptions';
import { guardWrite } from '../dryRun';
import { checkBeforeSending } from '../checkBeforeSending';
import { writeOnce } from '../writeMemory';
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

const CHECK_BEFORE_AGAIN =
	'Check with Webhook → Get Many before running this item again: a second webhook would double every delivery.';

export const description = writeOperationDescription('webhook', 'create', properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const name = requireValue.call(this, i, 'name', textValue.call(this, i, 'name', this.getNodeParameter('name', i)));
	const url = requireValue.call(
		this,
		i,
		'url',
		textValue.call(this, i, 'url', this.getNodeParameter('url', i), MAX_URL_LENGTH),
	);
	const parsed = URL.canParse(url) ? new URL(url) : undefined;
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

	const request = { method: 'POST' as const, path: '/webhooks', body: { name, url, events } };
	const dryRun = await guardWrite.call(this, { operation: 'Webhook Create', itemIndex: i, request });
	if (dryRun) return dryRun;

	const sameWebhook = (webhook: IDataObject) => webhook.url === url && webhook.name === name;
	const listed = async (): Promise<IDataObject[]> => (await listWebhooks.call(this, settings)).filter(sameWebhook);
	const checkFirst = async (why: string): Promise<string[]> =>
		await checkBeforeSending(
			this.getNode(),
			{ record: 'webhook', why: `${why}, and the list of webhooks (GET /webhooks) could not be read` },
			async () => (await listed()).map((webhook) => String(webhook.id)),
		);

	const send = async (sending: (listedBefore: string[]) => void): Promise<INodeExecutionData[]> => {
		// Listed before sending, so that after a lost answer only a webhook new since then is named as this item's:
		// an older one with the same name and URL is the user's, and deleting it would stop its deliveries.
		const retried = this.getMode() === 'retry';
		const listedNow = await checkFirst(
			retried
				? 'this is a retried execution, which checks for the webhook first'
				: 'it is checked against the list before sending',
		);
		if (retried && listedNow.length > 0) {
			// A retried execution runs this item again from its stored input: the failed execution may have created
			// the webhook, whose secret cannot be read again, and a second one would double every delivery.
			throw withOutcome(
				new NodeOperationError(
					this.getNode(),
					`A webhook named ${quoted(name)} for ${quoted(url)} already exists (id ${listedNow.join(', ')}): not created again`,
					{
						itemIndex: i,
						description: `This is a retried execution, and a second webhook would double every delivery. The secret of the existing webhook was shown only when it was created and cannot be read again: if it was not stored, delete the webhook (Webhook → Delete) and run this item again. (item ${i}, POST /webhooks)`,
					},
				),
				'notSent',
			);
		}
		sending(listedNow);
		const before = new Set(listedNow);
		try {
			const response = await prospectingApiRequest.call(this, 'POST', '/webhooks', {
				...settings,
				body: { name, url, events },
				expect: theWebhookSent({ name, url }),
			});
			return [{ json: unwrapRecord(response) ?? {} }];
		} catch (error) {
			if (!isOutcomeUnknown(error)) throw asNodeError(this.getNode(), error);
			throw withNote(this.getNode(), error, await afterLoss(before));
		}
	};

	/** What a read of the list shows after a lost answer, for the error's description. */
	const afterLoss = async (before: Set<string>): Promise<string> => {
		let now: IDataObject[];
		try {
			now = await listed();
		} catch (readError) {
			return `The webhook list could not be read (${asNodeError(this.getNode(), readError).message}), so whether the webhook was created is not known. ${CHECK_BEFORE_AGAIN}`;
		}
		const fresh = now.filter((webhook) => !before.has(String(webhook.id))).map((webhook) => String(webhook.id));
		const older =
			before.size > 0
				? ` Webhook ${[...before].join(', ')} with this name and URL existed before this item was sent and is not the one it created: keep it.`
				: '';
		if (fresh.length > 1) {
			return `Webhooks ${fresh.join(', ')} with this name and URL were created since this item was sent (another workflow may create them too); one of them is this item's, and its secret cannot be read again. Check with Webhook → Get Many.${older}`;
		}
		if (fresh.length === 1) {
			return `The webhook was created (id ${fresh[0]}), but its secret was in the lost answer and cannot be read again. Delete it and create it once more.${older}`;
		}
		return `No new webhook with this name and URL is listed yet, but the service may still create it (a slow service can apply a write after its answer was lost). ${CHECK_BEFORE_AGAIN}${older}`;
	};

	// An earlier try of this execution (n8n's Retry On Fail) whose answer was lost: never sent again, and what the
	// list shows now is told against the list that try read before sending.
	const afterUnknown = async (listedBefore: string[]): Promise<INodeExecutionData[]> => {
		// Its error proves nothing, so the router marks it unknown.
		const error = new NodeOperationError(
			this.getNode(),
			`The webhook ${quoted(name)} may have been created: an earlier try of this node sent it and its answer was lost`,
			{ itemIndex: i, description: `It was not sent again. (item ${i}, POST /webhooks)` },
		);
		throw withNote(this.getNode(), error, await afterLoss(new Set(listedBefore)));
	};

	return await writeOnce<string[]>(this, i, { send, again: afterUnknown });
}
