/**
 * The pieces of an n8n instance a node run needs, built once per jest worker, and the per-run
 * `additionalData` n8n-core hands to every node context.
 */
import './environment';

import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, ExternalSecretsProxy, InstanceSettings } from 'n8n-core';
// Not re-exported by n8n-core's index; the same module instance n8n-core itself resolves.
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import type {
	ICredentialDataDecryptedObject,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials';
import { installLogCapture } from './log-capture';

let ready = false;

/** Installs the log capture and builds n8n-core's instance settings (encryption key) once per worker. */
export function ensureEngine(): void {
	if (ready) return;
	installLogCapture();
	Container.get(InstanceSettings);
	// Every ExecuteContext builds the SSH clients manager, whose 60 s cleanup interval would keep
	// the jest worker alive after the tests; nothing here opens SSH tunnels, so let it not hold the process.
	const sshClients = Container.get(SSHClientsManager) as unknown as { cleanupTimer?: NodeJS.Timeout };
	sshClients.cleanupTimer?.unref();
	ready = true;
}

/** Base URLs n8n builds webhook addresses from; the trigger helpers point them at a local receiver. */
export interface WebhookBaseUrls {
	instanceBaseUrl: string;
	webhookBaseUrl: string;
	webhookTestBaseUrl: string;
	webhookWaitingBaseUrl: string;
	formWaitingBaseUrl: string;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:5678';

export function webhookBaseUrls(instanceBaseUrl = DEFAULT_BASE_URL): WebhookBaseUrls {
	const base = instanceBaseUrl.replace(/\/+$/, '');
	return {
		instanceBaseUrl: `${base}/`,
		webhookBaseUrl: `${base}/webhook`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		formWaitingBaseUrl: `${base}/form-waiting`,
	};
}

let executionCounter = 0;

export function nextExecutionId(): string {
	executionCounter += 1;
	return `${process.pid}-${executionCounter}`;
}

export interface AdditionalDataOptions {
	executionId: string;
	mode: WorkflowExecuteMode;
	workflowData: IWorkflowBase;
	credentials?: Record<string, ICredentialDataDecryptedObject | undefined>;
	credentialsHelper?: TestCredentialsHelper;
	urls?: WebhookBaseUrls;
}

function unsupported(what: string) {
	return async () => {
		throw new ApplicationError(`${what} is not available in the test harness`);
	};
}

/**
 * What n8n's WorkflowExecuteAdditionalData.getBase provides, minus the database, sub-workflows and
 * task runners (unused by this package's nodes, so they fail loudly if ever called).
 */
export function createAdditionalData(options: AdditionalDataOptions): IWorkflowExecuteAdditionalData {
	ensureEngine();
	const urls = options.urls ?? webhookBaseUrls();
	const hooks = new ExecutionLifecycleHooks(options.mode, options.executionId, options.workflowData);
	const additionalData: IWorkflowExecuteAdditionalData = {
		credentialsHelper: options.credentialsHelper ?? new TestCredentialsHelper(options.credentials ?? {}),
		executeWorkflow: unsupported('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		executionId: options.executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${urls.instanceBaseUrl}rest`,
		instanceBaseUrl: urls.instanceBaseUrl,
		formWaitingBaseUrl: urls.formWaitingBaseUrl,
		webhookBaseUrl: urls.webhookBaseUrl,
		webhookWaitingBaseUrl: urls.webhookWaitingBaseUrl,
		webhookTestBaseUrl: urls.webhookTestBaseUrl,
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: unsupported('A task runner') as IWorkflowExecuteAdditionalData['startRunnerTask'],
		hooks,
		externalSecretsProxy: new ExternalSecretsProxy(),
	};
	return additionalData;
}
