/**
 * Runs a credential's `test` the way n8n's CredentialsTester does when a user clicks "Test" in the
 * credential dialog: defaults applied and expressions resolved, a temporary node whose only
 * parameter routes the test request, n8n-core's RoutingNode making the call with the credential's
 * authentication, and the test's `rules` applied to the outcome.
 */
import { STATUS_CODES } from 'node:http';

import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestRequest,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	IWorkflowBase,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { credentialTypes, TestCredentialsHelper } from './credentials';
import { createAdditionalData, ensureEngine, nextExecutionId } from './engine';
import { withLogSink } from './log-capture';
import { nodeTypes } from './node-types';

const TEST_NODE_TYPE = 'n8n-nodes-base.noOp';

export interface CredentialTestResult extends INodeCredentialTestResult {
	/** Log and console lines written during the test. */
	logs: string[];
}

interface ErrorWithResponse {
	message: string;
	httpCode?: string | null;
	cause?: { response?: { status: number; statusText?: string }; code?: string };
}

/**
 * The HTTP answer or network code behind a failed test request. n8n reads them from the error's
 * `cause`; n8n-workflow 2.11's NodeApiError does not keep `cause` (later versions do), so the status
 * and code it records in `httpCode` stand in, with the standard reason phrase as the status text.
 */
function failureOf(error: ErrorWithResponse): { response?: { status: number; statusText?: string }; code?: string } {
	if (error.cause?.response || error.cause?.code) return error.cause;
	const httpCode = error.httpCode ?? undefined;
	if (httpCode && /^\d{3}$/.test(httpCode)) {
		const status = Number(httpCode);
		return { response: { status, statusText: STATUS_CODES[status] } };
	}
	if (httpCode && /^E[A-Z_]+$/.test(httpCode)) return { code: httpCode };
	return {};
}

/**
 * Tests credential data of `type` (default `prospectingApi`) with the credential's own `test`.
 * Resolves to `{ status: 'OK' | 'Error', message }` as n8n's credential dialog shows it.
 */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
	type = 'prospectingApi',
): Promise<CredentialTestResult> {
	ensureEngine();
	const sink = { lines: [] as string[] };
	const result = await withLogSink(sink, async () => await runCredentialTest(data, type));
	return { ...result, logs: sink.lines };
}

async function runCredentialTest(
	data: ICredentialDataDecryptedObject,
	type: string,
): Promise<INodeCredentialTestResult> {
	const credentialType = credentialTypes.getByName(type);
	const testRequest: ICredentialTestRequest | undefined = credentialType.test;
	if (!testRequest) return { status: 'Error', message: 'No testing function found for this credential.' };

	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: TEST_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: TestCredentialsHelper.nodeCredentials(type) },
	};
	const workflowData: IWorkflowBase = {
		id: 'credential-test',
		name: 'Credential test',
		active: false,
		isArchived: false,
		activeVersionId: null,
		nodes: [node],
		connections: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	const credentialsHelper = new TestCredentialsHelper({ [type]: data });
	const additionalData = createAdditionalData({
		executionId: nextExecutionId(),
		mode: 'internal',
		workflowData,
		credentialsHelper,
	});

	let credentialsDecrypted: ICredentialsDecrypted;
	try {
		credentialsDecrypted = {
			id: 'test-credential',
			name: 'Test credential',
			type,
			data: credentialsHelper.applyDefaultsAndResolve(additionalData, data, type, 'internal'),
		};
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message) };
	}

	// The temporary node type n8n builds: one parameter whose routing is the test request.
	const testNodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'noOp',
			group: ['organization'],
			version: 1,
			description: 'Credential test',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const testNodeTypes: INodeTypes = {
		getByName: (name) => (name === TEST_NODE_TYPE ? testNodeType : nodeTypes.getByName(name)),
		getByNameAndVersion: (name, version) =>
			name === TEST_NODE_TYPE ? testNodeType : nodeTypes.getByNameAndVersion(name, version),
		getKnownTypes: () => nodeTypes.getKnownTypes(),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: testNodeTypes });

	const runExecutionData: IRunExecutionData = createRunExecutionData({ executionData: null });
	const inputData = { main: [[{ json: {} }]] };
	const connectionInputData: INodeExecutionData[] = [];
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		connectionInputData,
		inputData,
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, testNodeType, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as ErrorWithResponse;
		const failure = failureOf(error);
		if (failure.response) {
			const { status, statusText } = failure.response;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && status === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (failure.code) {
			return { status: 'Error', message: failure.code };
		}
		return { status: 'Error', message: String(error.message) };
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const body = response?.[0]?.[0]?.json ?? {};
			const value = rule.properties.key
				.split('.')
				.reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], body);
			if (value === rule.properties.value) return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
