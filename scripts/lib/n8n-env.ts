/**
 * Environment for an n8n that listens on loopback and talks to nothing but loopback: every feature of n8n 2.41.1
 * and 1.123.81 that calls n8n's servers at start or while running is switched off here (names read from n8n's
 * packages/@n8n/config/src/configs/*.ts and packages/cli/src/modules/** of those versions). A variable one
 * version does not know is ignored by it, except N8N_DISABLED_MODULES: n8n refuses to start on a module name it
 * does not know, so that list depends on the version.
 */
import { n8nMajor } from './n8n-versions';

export interface N8nEnvOptions {
	/** Folder that holds .n8n/ (database, settings, community packages in .n8n/nodes). */
	userFolder: string;
	port: number;
	/** Port of n8n's internal task broker (default 5679 would clash between two instances). */
	brokerPort: number;
	/** Fixed so that a kept user folder can still decrypt its credentials. */
	encryptionKey: string;
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	/** The n8n version this environment is for (default: 2.x). */
	n8nVersion?: string;
}

/**
 * Modules that fetch registries or reach AI services (2.41.1's MCP server registry refreshes from api.n8n.io).
 * n8n 1.123.81 has none of them (its modules: insights, external-secrets, community-packages, data-table, mcp,
 * chat-hub, provisioning, breaking-changes, none of which calls out on its own).
 */
function disabledModules(n8nVersion: string): string {
	return n8nMajor(n8nVersion) >= 2 ? 'mcp-registry,instance-ai,workflow-builder,agents' : '';
}

export function n8nEnvironment(options: N8nEnvOptions): Record<string, string> {
	const baseUrl = `http://127.0.0.1:${options.port}/`;
	return {
		// Where and how n8n listens. The webhook base URL is what the Prospecting Trigger registers remotely.
		N8N_USER_FOLDER: options.userFolder,
		N8N_PORT: String(options.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: baseUrl,
		N8N_WEBHOOK_URL: baseUrl,
		WEBHOOK_URL: baseUrl, // n8n 1.x and 2.x before 2.30 read only this name
		N8N_SECURE_COOKIE: 'false', // plain http on loopback; a secure cookie would not be sent back
		N8N_ENCRYPTION_KEY: options.encryptionKey,
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_ENABLED: 'true', // the default in 2.x; n8n 1.x runs the Code node in its main process without it
		N8N_PYTHON_ENABLED: 'false', // no Python is installed for the Code node; n8n still logs that its Python runner is missing
		N8N_LOG_LEVEL: options.logLevel ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
		// Keep every execution so that its data can be inspected (and scanned for the API key).
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		// The sandbox runs on 127.0.0.1; n8n's SSRF guard (off by default in 2.41.1) would block it when on.
		N8N_SSRF_PROTECTION_ENABLED: 'false',

		// Community packages: loaded from .n8n/nodes/node_modules; never fetched or vetted over the network.
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false', // the verified list comes from api.n8n.io
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_COMMUNITY_PACKAGES_REGISTRY: 'http://127.0.0.1:9', // any npm call n8n might make fails locally

		// Outbound calls to n8n's servers, all off.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_DIAGNOSTICS_POSTHOG_API_HOST: 'http://127.0.0.1:9',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_AI_ENABLED: 'false',
		N8N_AI_GATEWAY_ENABLED: 'false',
		N8N_AI_ASSISTANT_BASE_URL: '',
		N8N_MCP_BUILDER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_LICENSE_SERVER_URL: 'http://127.0.0.1:9/v1',
		N8N_SENTRY_DSN: '',
		N8N_FRONTEND_SENTRY_DSN: '',
		N8N_DISABLED_MODULES: disabledModules(options.n8nVersion ?? '2'),
	};
}
