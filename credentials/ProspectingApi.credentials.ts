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
				'Address of the service, without /api/v1 (a trailing slash or /api/v1 is tolerated)',
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
			displayName: 'Rate Limit Window (Seconds)',
			name: 'rateLimitWindowSeconds',
			type: 'number',
			// The service documents a fixed 60 s window; knowing it lets calls resume as soon as a window ends.
			default: 60,
			typeOptions: { minValue: 0 },
			description:
				"Length of the service's fixed rate-limit window. Calls held back by a spent budget resume this long after the window's first answer, or at the announced X-RateLimit-Reset if that is sooner. 0 waits for the announced reset alone.",
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
		},
		rules: [
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
