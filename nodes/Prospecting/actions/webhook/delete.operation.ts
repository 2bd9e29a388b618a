import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { unwrapRecord } from '../../shared/records';
import { listWebhooks } from '../../shared/webhooks';
import { asNodeError, isResponseLostError, prospectingApiRequest } from '../../transport';
import { guardWrite } from '../dryRun';
import { writeOperationDescription } from '../dryRun.description';
import { callSettings, quoted } from '../parameters';
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
	const settings = callSettings.call(this, i);
	const dryRun = await guardWrite.call(this, {
		operation: 'Webhook Delete',
		itemIndex: i,
		request: { method: 'DELETE', path: `/webhooks/${id}` },
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
	let response: unknown;
	try {
		response = await prospectingApiRequest.call(this, 'DELETE', `/webhooks/${id}`, {
			...settings,
			recordLabel: `Webhook "${plainId}"`,
		});
	} catch (error) {
		if (!isResponseLostError(error)) throw asNodeError(this.getNode(), error);
		// Whether the deletion happened is a read away.
		const stillThere = (await listWebhooks.call(this, settings)).some(
			(webhook) => String(webhook.id) === plainId,
		);
		if (stillThere) throw asNodeError(this.getNode(), error);
		response = undefined;
	}
	const record = unwrapRecord(response) ?? {};
	return [{ json: { id: plainId, deleted: true, ...record } }];
}
