import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isRepeatedDelivery } from './deliveryMemory';
import type { KeptWebhook } from './keptWebhooks';
import { keptForDelivery } from './keptWebhooks';
import type { SignatureCheck } from './signature';
import { verifyDeliverySignature } from './signature';

export interface DeliveryOptions {
	ignoreRepeatedDeliveries?: boolean;
	includeTestDeliveries?: boolean;
	output?: 'envelope' | 'data';
	signatureHeader?: string;
}

/** Answers a delivery that starts nothing, with a status and a short reason. */
function answer(
	context: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	const response = context.getResponseObject();
	response.status(status).json({ message });
	return { noWebhookResponse: true };
}

/** Acknowledges a genuine delivery that is deliberately not run, so the service does not retry it. */
function ignore(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored: reason } };
}

/** The raw bytes n8n read from the request; the signature is computed over these, never over re-serialised JSON. */
async function rawBodyOf(context: IWebhookFunctions): Promise<Buffer | undefined> {
	const request = context.getRequestObject();
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function') {
		try {
			await request.readRawBody();
		} catch {
			return undefined;
		}
	}
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : undefined;
}

function parseEnvelope(rawBody: Buffer): IDataObject | undefined {
	try {
		const parsed = JSON.parse(rawBody.toString('utf8')) as unknown;
		return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as IDataObject)
			: undefined;
	} catch {
		return undefined;
	}
}

/**
 * webhook(): verifies the delivery's signature before anything else, then emits the event.
 * Unverified deliveries answer 401 and start no execution. An unexpected failure answers 500 and
 * starts nothing either (n8n would otherwise start an execution just to show the error), so the
 * service retries the delivery later.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		return await handleDelivery.call(this);
	} catch (error) {
		this.logger.error('Prospecting Trigger could not process a delivery (500)', {
			node: this.getNode().name,
			error: error instanceof Error ? error.message : String(error),
		});
		const response = this.getResponseObject();
		if (response.headersSent) return { noWebhookResponse: true };
		return answer(this, 500, 'Delivery could not be processed');
	}
}

async function handleDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const options = this.getNodeParameter('options', {}) as DeliveryOptions;
	const staticData = this.getWorkflowStaticData('node');
	const test = this.getMode() === 'manual';
	const candidates = keptForDelivery(staticData, {
		test,
		productionUrl: this.getNodeWebhookUrl('default'),
	});
	const rawBody = await rawBodyOf(this);
	const headers = this.getHeaderData() as Record<string, string | string[] | undefined>;

	let check: SignatureCheck = { verified: false, reason: 'no-secret' };
	let verifiedBy: KeptWebhook | undefined;
	for (const kept of candidates) {
		check = verifyDeliverySignature({
			rawBody,
			secret: kept.secret,
			headers,
			headerName: options.signatureHeader,
		});
		if (check.verified) {
			verifiedBy = kept;
			break;
		}
	}
	if (!check.verified || verifiedBy === undefined) {
		const reason = check.verified ? 'no-secret' : check.reason;
		this.logger.warn(`Prospecting Trigger rejected a delivery (401): ${reason}`, {
			node: this.getNode().name,
			signatureHeader: options.signatureHeader || '(detect)',
		});
		return answer(this, 401, 'Delivery signature missing or invalid');
	}

	const envelope = parseEnvelope(rawBody as Buffer);
	if (envelope === undefined) {
		return answer(this, 400, 'Delivery body is not a JSON object');
	}

	if (envelope.test === true && options.includeTestDeliveries === false) {
		return ignore('test delivery');
	}
	const subscribed = Array.isArray(verifiedBy.events) ? verifiedBy.events : [];
	if (typeof envelope.event === 'string' && subscribed.length > 0 && !subscribed.includes(envelope.event)) {
		return ignore(`event ${envelope.event.slice(0, 100)} not subscribed`);
	}
	const eventId = envelope.id;
	if (
		options.ignoreRepeatedDeliveries !== false &&
		(typeof eventId === 'string' || typeof eventId === 'number')
	) {
		const workflow = this.getWorkflow();
		const scope = `${workflow.id ?? ''}:${this.getNode().id}:${verifiedBy.id}:${verifiedBy.keptAt}`;
		if (isRepeatedDelivery(staticData, scope, String(eventId))) {
			return ignore('repeated delivery');
		}
	}

	const data = envelope.data;
	const item: IDataObject =
		options.output === 'data'
			? data !== null && typeof data === 'object' && !Array.isArray(data)
				? (data as IDataObject)
				: { data: data as unknown as IDataObject }
			: envelope;
	return { workflowData: [this.helpers.returnJsonArray([item])] };
}
