/**
 * Test harness: runs workflows and trigger methods through n8n-core, with real credentials
 * resolution and real HTTP. See README.md in this folder.
 */
import './environment';

export { executeWorkflow, reviveError } from './execute-workflow';
export type {
	ExecuteWorkflowOptions,
	TestCredentials,
	TestWorkflow,
	WorkflowRunResult,
} from './execute-workflow';
export {
	nodeTypes,
	registerNodeType,
	PROSPECTING_NODE_TYPE,
	PROSPECTING_TRIGGER_NODE_TYPE,
	START_NODE,
	START_NODE_TYPE,
} from './node-types';
export { credentialTypes, registerCredentialType, TestCredentialsHelper } from './credentials';
export { allLogLines, serialiseMetadata } from './log-capture';
export {
	createTriggerWorkflow,
	startWebhookReceiver,
	TriggerWorkflowHandle,
} from './trigger';
export type {
	DeliveryInput,
	DeliveryResult,
	TriggerWorkflowOptions,
	WebhookMethodName,
	WebhookMode,
	WebhookReceiver,
} from './trigger';
export { testCredential } from './credential-test';
export type { CredentialTestResult } from './credential-test';
export { findSecret } from './secret-scan';
