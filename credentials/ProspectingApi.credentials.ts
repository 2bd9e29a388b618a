import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class ProspectingApi implements ICredentialType {
	name = 'prospectingApi';

	displayName = 'Prospecting API';

	icon: Icon = { light: 'file:prospecting.svg', dark: 'file:prospecting.dark.svg' };

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-prospecting#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the service, without /api/v1 (a trailing slash or /api/v1 is tolerated). Use https://: over plain http:// the API key travels readable by anyone on the way. Redirects are not followed, and link-local and cloud metadata addresses are refused; to keep workflows from reaching other internal addresses, turn on n8n\'s N8N_SSRF_PROTECTION_ENABLED.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Key of the account, generated in the platform under Settings, then API settings. It is sent as the apiKey query parameter, so treat it as a password.',
		},
		{
			displayName: 'Writes in Manual Runs',
			name: 'manualWrites',
			type: 'options',
			// The service has no test environment: a click on Execute step must not change production by default.
			default: 'dryRun',
			options: [
				{
					name: 'Dry Run (Send Nothing)',
					value: 'dryRun',
					description:
						'Run every check and read, then output the request a write would send instead of sending it',
				},
				{
					name: 'Stop With Error',
					value: 'ask',
					description:
						'Fail the item with a message saying the write would change production and how to allow it',
				},
				{
					name: 'Send to Production',
					value: 'send',
					description: 'Send writes for real, as an active workflow does',
				},
			],
			description:
				'What Lead Create, Routine Add Lead, Webhook Create and Webhook Delete do when the workflow runs from the editor (Execute step, Execute workflow, the test URL, the editor chat, evaluations). Active workflows always send, unless the node\'s own Dry Run says otherwise.',
		},
		{
			displayName: 'Reads per Window',
			name: 'readsPerWindow',
			type: 'number',
			// The service's documented limits: the node paces itself on them from the first call, headers or not.
			default: 200,
			typeOptions: { minValue: 1 },
			description:
				'Read calls (GET) the service allows per window. Used until the service\'s X-RateLimit-* headers say otherwise.',
		},
		{
			displayName: 'Writes per Window',
			name: 'writesPerWindow',
			type: 'number',
			default: 100,
			typeOptions: { minValue: 1 },
			description:
				'Write calls (POST, DELETE) the service allows per window. Used until the service\'s X-RateLimit-* headers say otherwise.',
		},
		{
			displayName: 'Rate Limit Window (Seconds)',
			name: 'rateLimitWindowSeconds',
			type: 'number',
			default: 60,
			typeOptions: { minValue: 0 },
			description:
				"Length of the service's fixed rate-limit window: no more calls than the limits above go within any window's length. 0: pace on the service's headers alone (a 429 without hints then holds the key 60 s).",
		},
		{
			displayName: 'X-RateLimit-Reset Unit',
			name: 'rateLimitResetUnit',
			type: 'options',
			// The spec does not show the reset's unit; a wrong reading would hold the key for hours.
			default: 'auto',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description: "For each answer, the unit that puts the reset within a window after the answer's Date header",
				},
				{ name: 'Epoch Seconds', value: 'epochSeconds' },
				{ name: 'Epoch Milliseconds', value: 'epochMs' },
				{ name: 'Seconds From Now', value: 'secondsFromNow' },
			],
			description: "What the service's X-RateLimit-Reset header counts. A reset that the unit does not place within a window after the answer's Date header is ignored.",
		},
		{
			displayName: 'n8n Processes Sharing This Key',
			name: 'clientsSharingKey',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 1 },
			description:
				'In queue mode, the number of n8n workers that run these nodes with this key: each process keeps to its part of the limits above. Left at 1, a process takes its part from what the service\'s X-RateLimit-Remaining shows the others use, after a few refusals.',
		},
	];

	// The service reads the key only from the apiKey query parameter, never from a header.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			qs: { apiKey: '={{$credentials.apiKey}}' },
		},
	};

	// The service has no health endpoint; a one-record read of custom fields is the lightest check of a key.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/api\\/v1$/, "")}}',
			url: '/api/v1/custom-fields',
			qs: { limit: 1, page: 1 },
			// As every call of the nodes: a redirect would send the key to the address it names.
			disableFollowRedirect: true,
		},
		rules: [
			...[301, 302, 303, 307, 308].map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The base URL answers with a redirect (${status}), which is not followed, so the key is not sent to another address. If the service has moved, put its new address (https://) in the Base URL.`,
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The API key was refused (401). Check the API key in this credential.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers /api/v1/custom-fields at this address (404). Check the base URL: it is the address of the service, without /api/v1.',
				},
			},
		],
	};
}
