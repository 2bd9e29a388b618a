import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { unwrapRecord } from '../../shared/records';
import { listWebhooks, theWebhookDeleted } from '../../shared/webhooks';
import { asNodeError, withNote } from '../../helpers/nodeError';
import { isNotFound } from '../../helpers/statusError';
import { prospectingApiRequest } from '../../transport/request';
import { isOutcomeUnknown, withOutcome } from '../../helpers/outcome';
import { guardWrite } from '../dryRun';
import { writeOnce } from '../writeMemory';
import { writeOperationDescription } from '../dryRun.description';
import { quoted, writeSettings } from '../parameters';
import { pathSegment } from '../pathSegment';
import { recordLocator } from '../../shared/recordLocator';
import { FROM_VERSION_2, inVersions, VERSION_1_ONLY } from '../../shared/versions';

const DELETE_DESCRIPTION =
	'The webhook to delete. Its secret is gone with it; a new webhook gets a new secret.';

const properties: INodeProperties[] = [
	inVersions(VERSION_1_ONLY, {
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'string',
		required: true,
		default: '',
		description: DELETE_DESCRIPTION,
	}),
	inVersions(
		FROM_VERSION_2,
		recordLocator({
			displayName: 'Webhook',
			name: 'webhookId',
			searchListMethod: 'searchWebhooks',
			required: true,
			description: DELETE_DESCRIPTION,
		}),
	),
];

export const description = writeOperationDescription('webhook', 'delete', properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const rawId = this.getNodeParameter('webhookId', i, '', { extractValue: true }) as unknown;
	const id = pathSegment(this.getNode(), i, 'webhookId', rawId);
	const plainId = String(rawId).trim();
	const settings = writeSettings.call(this, i);
	const path = `/webhooks/${id}`;
	const request = { method: 'DELETE' as const, path };
	const dryRun = await guardWrite.call(this, {
		operation: 'Webhook Delete',
		itemIndex: i,
		request,
		// Whether there is a webhook to delete is a read away.
		preview: async () => {
			const existing = (await listWebhooks.call(this, settings)).find(
				(webhook) => String(webhook.id) === plainId,
			);
			return existing
				? {
						wouldReturn: { id: plainId, deleted: true },
						note: `The webhook exists (${quoted(existing.name)}, ${quoted(existing.url)}) and would be deleted.`,
					}
				: {
						note: 'No webhook with this id exists (GET /webhooks), so the service would answer 404 Not Found.',
					};
		},
	});
	if (dryRun) return dryRun;
	const remove = async () =>
		await prospectingApiRequest.call(this, 'DELETE', path, {
			...settings,
			recordLabel: `Webhook "${plainId}"`,
			expect: theWebhookDeleted(plainId),
		});
	const isListed = async () =>
		(await listWebhooks.call(this, settings)).some((webhook) => String(webhook.id) === plainId);
	const deleted = (response?: unknown): INodeExecutionData[] => [
		{ json: { id: plainId, deleted: true, ...(unwrapRecord(response) ?? {}) } },
	];
	// A retried execution runs this item again from its stored input: the service's 404 then is the failed execution's delete.
	const retried = this.getMode() === 'retry';

	/** Whether the webhook is still listed after a delete whose answer was lost; a failed read leaves it unknown. */
	const stillListed = async (lost: unknown): Promise<boolean> => {
		try {
			return await isListed();
		} catch (readError) {
			throw withNote(
				this.getNode(),
				lost,
				`The webhook list could not be read (${asNodeError(this.getNode(), readError).message}), so whether the webhook was deleted is not known: check with Webhook → Get Many, and run this item again if it is still there (deleting it twice does no harm).`,
			);
		}
	};

	const send = async (): Promise<INodeExecutionData[]> => {
		try {
			return deleted(await remove());
		} catch (error) {
			if (retried && isNotFound(error)) return deleted();
			if (!isOutcomeUnknown(error)) throw asNodeError(this.getNode(), error);
			// Whether the deletion happened is a read away. Deleting by id again cannot remove anything else: when the
			// webhook is still listed (a slow service may not have applied it yet), the delete is sent once more and a
			// 404 then means the first one got there.
			if (!(await stillListed(error))) return deleted();
		}
		try {
			return deleted(await remove());
		} catch (again) {
			if (isNotFound(again)) return deleted();
			// The first delete may still be applied by a slow service, whatever the second one met.
			if (!isOutcomeUnknown(again)) throw withOutcome(asNodeError(this.getNode(), again), 'unknown');
			if (!(await stillListed(again))) return deleted();
			throw withNote(
				this.getNode(),
				again,
				'The delete was sent twice and the answer was lost both times; the webhook is still listed. A slow service may still delete it: check with Webhook → Get Many, and run this item again if it is still there (deleting it twice does no harm).',
			);
		}
	};

	// An earlier try of this execution (n8n's Retry On Fail) ended with its outcome unknown: the list tells. Its error
	// proves nothing, so the router marks it unknown.
	const afterUnknown = async (): Promise<INodeExecutionData[]> => {
		const unknown = new NodeOperationError(
			this.getNode(),
			`Webhook ${quoted(plainId)} may not be deleted yet: an earlier try of this node sent its delete and the answer was lost`,
			{
				itemIndex: i,
				description: `It was not sent again in this execution. A slow service may still delete it: check with Webhook → Get Many, and run this item again if it is still there (deleting it twice does no harm). (item ${i}, DELETE ${path})`,
			},
		);
		if (!(await stillListed(unknown))) return deleted();
		throw unknown;
	};

	return await writeOnce<undefined>(this, i, {
		send: async (sending) => {
			sending(undefined);
			return await send();
		},
		again: afterUnknown,
	});
}
