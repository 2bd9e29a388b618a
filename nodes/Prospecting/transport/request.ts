import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export type ProspectingContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export interface ProspectingRequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/** The input item the call is made for, so errors can name it. */
	itemIndex?: number;
}

/** Normalises the credential's base URL: trims, drops trailing slashes and a trailing /api/v1. */
export function normaliseBaseUrl(baseUrl: string): string {
	return String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/, '');
}

/**
 * One call to the service under /api/v1, authenticated by the prospectingApi credential.
 * `endpoint` starts with '/', e.g. '/leads'. Returns the parsed JSON body.
 */
export async function prospectingApiRequest(
	this: ProspectingContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ProspectingRequestOptions = {},
): Promise<any> {
	const credentials = await this.getCredentials<{ baseUrl: string; apiKey: string }>(
		'prospectingApi',
	);
	const request: IHttpRequestOptions = {
		method,
		baseURL: `${normaliseBaseUrl(credentials.baseUrl)}/api/v1`,
		url: endpoint,
		qs: options.qs,
		json: true,
	};
	if (options.body !== undefined) request.body = options.body;
	return await this.helpers.httpRequestWithAuthentication.call(this, 'prospectingApi', request);
}
