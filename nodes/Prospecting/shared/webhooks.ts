import type { IDataObject } from 'n8n-workflow';

import type { ProspectingContext } from '../helpers/account';
import type { ProspectingRequestOptions } from '../transport/request';
import { buildApiError } from '../helpers/errors';
import { prospectingApiRequest } from '../transport/request';

/** GET /webhooks answers `{ data }` with every webhook of the project at once: no pages. */
export async function listWebhooks(
	this: ProspectingContext,
	settings: ProspectingRequestOptions = {},
): Promise<IDataObject[]> {
	const body = await prospectingApiRequest.call(this, 'GET', '/webhooks', settings);
	const data = Array.isArray(body) ? body : (body as IDataObject | undefined)?.data;
	if (!Array.isArray(data)) {
		throw buildApiError(this.getNode(), {
			message: 'The answer for /webhooks has no data list',
			description: `Expected an object with a "data" array. (item ${settings.itemIndex ?? 0}, GET /webhooks)`,
			itemIndex: settings.itemIndex,
		});
	}
	return data as IDataObject[];
}
