/**
 * Runs a polling trigger node the way n8n does, in process: `poll()` through n8n-core's PollContext
 * with the mode n8n passes ('trigger' for an active workflow, 'manual' for "Fetch Test Event"), so
 * getWorkflowStaticData('node'), getCredentials and httpRequestWithAuthentication are n8n-core's own.
 * The handle keeps one n8n `Workflow`, whose static data persists between polls as an active
 * workflow's does; `restart()` builds a new workflow from a copy of what n8n would have saved.
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeParameters, IWorkflowBase, WorkflowExecuteMode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials';
import { createAdditionalData, nextExecutionId } from './engine';
import type { TestCredentials } from './execute-workflow';
import { nodeTypes, PROSPECTING_POLL_TRIGGER_NODE_TYPE } from './node-types';

export interface PollWorkflowOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	staticData?: IDataObject;
	/** The node's version as saved in the workflow; 1 unless given. */
	typeVersion?: number;
}

export class PollWorkflowHandle {
	private workflow: Workflow;
	private readonly node: INode;

	constructor(private readonly options: PollWorkflowOptions) {
		this.node = {
			id: 'poll-node',
			name: 'Prospecting Polling Trigger',
			type: PROSPECTING_POLL_TRIGGER_NODE_TYPE,
			typeVersion: options.typeVersion ?? 1,
			position: [0, 0],
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				...options.parameters,
			},
			credentials: Object.fromEntries(
				Object.keys(options.credentials).map((type) => [type, TestCredentialsHelper.nodeCredentials(type)]),
			),
		};
		this.workflow = this.build(options.staticData);
	}

	private build(staticData?: IDataObject): Workflow {
		return new Workflow({
			id: 'poll-workflow',
			name: 'Polling test',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: staticData ? structuredClone(staticData) : undefined,
		});
	}

	/** What n8n would save of the workflow's static data. */
	get staticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}

	/** The same workflow after an n8n restart: static data carried over, nothing else. */
	restart(): PollWorkflowHandle {
		return new PollWorkflowHandle({ ...this.options, staticData: this.staticData });
	}

	/** One poll; the items n8n would start an execution with, or [] when the poll returned null. */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<IDataObject[]> {
		const executeMode: WorkflowExecuteMode = mode;
		const workflowData = {
			id: this.workflow.id,
			name: this.workflow.name,
			active: true,
			isArchived: false,
			activeVersionId: null,
			nodes: [this.node],
			connections: {},
			settings: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		} as unknown as IWorkflowBase;
		const additionalData = createAdditionalData({
			executionId: nextExecutionId(),
			mode: executeMode,
			workflowData,
			credentials: this.options.credentials,
		});
		const context = new PollContext(this.workflow, this.node, additionalData, executeMode, mode === 'manual' ? 'manual' : 'activate');
		const nodeType = nodeTypes.getByNameAndVersion(this.node.type, 1);
		const result = (await nodeType.poll!.call(context)) as INodeExecutionData[][] | null;
		return result ? result[0].map((item) => item.json) : [];
	}
}
