/**
 * Credential types and the credentials helper n8n-core calls while a node runs.
 *
 * The helper mirrors what n8n's CLI CredentialsHelper does for a stored credential:
 * - credential data is kept encrypted with n8n-core's `Credentials` (the instance's encryption key)
 *   and decrypted on `getDecrypted`, then defaults from the credential's properties are applied and
 *   `={{ }}` expressions in its values are resolved;
 * - `authenticate` applies a function authenticate as is, or resolves a generic authenticate's
 *   `={{$credentials.x}}` expressions into the request's qs / headers / body / auth;
 * - `preAuthentication` runs the credential's hook when its expirable hidden property is empty or
 *   expired, and keeps the refreshed values.
 * Only the database is missing: credentials come from the test instead.
 */
import path from 'node:path';

import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	ICredentialTypes,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ApplicationError, ICredentialsHelper, NodeHelpers, Workflow, isExpression } from 'n8n-workflow';

import { nodeTypes, START_NODE_TYPE } from './node-types';

const repositoryRoot = path.resolve(__dirname, '..', '..');

type CredentialTypeSource = () => ICredentialType;

const credentialSources = new Map<string, CredentialTypeSource>();
const credentialInstances = new Map<string, ICredentialType>();

/** Makes a credential type known to every run in this worker. */
export function registerCredentialType(name: string, credentialType: ICredentialType | CredentialTypeSource) {
	credentialSources.set(name, typeof credentialType === 'function' ? credentialType : () => credentialType);
	credentialInstances.delete(name);
}

registerCredentialType('prospectingApi', () => {
	const loaded = require(path.join(repositoryRoot, 'credentials/ProspectingApi.credentials.ts')) as {
		ProspectingApi: new () => ICredentialType;
	};
	return new loaded.ProspectingApi();
});

export const credentialTypes: ICredentialTypes = {
	recognizes(name: string) {
		return credentialSources.has(name);
	},
	getByName(name: string): ICredentialType {
		const cached = credentialInstances.get(name);
		if (cached) return cached;
		const source = credentialSources.get(name);
		if (!source) throw new ApplicationError(`Unknown credential type "${name}"`);
		const instance = source();
		credentialInstances.set(name, instance);
		return instance;
	},
	getSupportedNodes() {
		return [];
	},
	getParentTypes(name: string): string[] {
		const parents = credentialTypes.getByName(name).extends ?? [];
		return parents.flatMap((parent) => [parent, ...credentialTypes.getParentTypes(parent)]);
	},
};

/** Node used to resolve credential expressions outside any execution (as the CLI's mock node). */
const mockNode: INode = {
	id: 'credential-resolution',
	name: '',
	typeVersion: 1,
	type: START_NODE_TYPE,
	position: [0, 0],
	parameters: {},
};

/** Credentials helper for one run: holds that run's credential data, encrypted. */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly stored = new Map<string, Credentials>();

	/** Every value of `preAuthentication` output kept, so a test can see refreshed tokens. */
	readonly updates: Array<{ type: string; data: ICredentialDataDecryptedObject }> = [];

	constructor(credentials: Record<string, ICredentialDataDecryptedObject | undefined> = {}) {
		super();
		for (const [type, data] of Object.entries(credentials)) {
			if (data === undefined) continue;
			credentialTypes.getByName(type);
			const entry = new Credentials({ id: `test-${type}`, name: `Test ${type}` }, type);
			entry.setData(data);
			this.stored.set(type, entry);
		}
	}

	/** `credentials` block to put on a node so it uses this run's credential of `type`. */
	static nodeCredentials(type: string): INodeCredentialsDetails {
		return { id: `test-${type}`, name: `Test ${type}` };
	}

	getParentTypes(name: string): string[] {
		return credentialTypes.getParentTypes(name);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = credentialTypes.getByName(typeName);
		if (!authenticate) return requestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}

		if (authenticate.type === 'generic') {
			requestOptions.headers ??= {};
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
					const valueResolved = this.resolveValue(value, { $credentials: credentials }, workflow, node);
					const target = requestOptions as unknown as Record<string, Record<string, string>>;
					target[outerKey] ??= {};
					target[outerKey][keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions;
	}

	private resolveValue(
		value: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(node, value, 'internal', additionalKeys, undefined, '');
		if (!resolved) return '';
		return resolved.toString();
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable?.name === undefined) return undefined;
		if (typeof credentialType.preAuthentication !== 'function') return undefined;

		const isTestingCredentials = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials) {
			return undefined;
		}

		const output = (await credentialType.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;

		const entry = this.stored.get(typeName);
		if (entry) {
			const data = { ...entry.getData(), ...output };
			entry.setData(data);
			this.updates.push({ type: typeName, data: output });
		}
		return Object.assign(credentials, output);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<Credentials> {
		const entry = this.stored.get(type);
		if (!entry) {
			throw new ApplicationError(`No test credentials of type "${type}" were given to this run`, {
				extra: { credentialName: nodeCredentials.name },
			});
		}
		return entry;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const entry = await this.getCredentials(nodeCredentials, type);
		const decryptedOriginal = entry.getData();
		if (raw === true) return decryptedOriginal;
		return this.applyDefaultsAndResolve(additionalData, decryptedOriginal, type, mode, executeData, expressionResolveValues);
	}

	/** As the CLI's applyDefaultsAndOverwrites, without overwrites (none are configured in tests). */
	applyDefaultsAndResolve(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(type);
		let decrypted = NodeHelpers.getNodeParameters(
			properties,
			decryptedOriginal as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (decryptedOriginal.oauthTokenData !== undefined) {
			decrypted.oauthTokenData = decryptedOriginal.oauthTokenData;
		}
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { secretsEnabled: false });

		if (expressionResolveValues) {
			try {
				decrypted = expressionResolveValues.workflow.expression.getParameterValue(
					decrypted as INodeParameters,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decrypted,
				) as ICredentialDataDecryptedObject;
			} catch (error) {
				(error as Error).message += ' [Error resolving credentials]';
				throw error;
			}
		} else {
			const workflow = new Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes });
			decrypted = workflow.expression.getComplexParameterValue(
				mockNode,
				decrypted as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decrypted,
			) as ICredentialDataDecryptedObject;
		}
		return decrypted;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored.get(type)?.setData(data);
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored.get(type)?.updateData({ oauthTokenData: data.oauthTokenData });
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = credentialTypes.getByName(type);
		if (credentialType.extends === undefined) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}
