/**
 * The node types a test workflow can use: the package's own nodes, loaded from their TypeScript
 * sources when first asked for (so a workflow that does not use a node still runs while that node
 * is being written), the harness start node, and any type a test registers itself.
 */
import path from 'node:path';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { ApplicationError, NodeHelpers } from 'n8n-workflow';

/** Package name n8n prefixes our node names with when the package is installed. */
export const PACKAGE_NAME = 'n8n-nodes-prospecting';

export const START_NODE_TYPE = 'n8n-nodes-base.manualTrigger';
export const PROSPECTING_NODE_TYPE = `${PACKAGE_NAME}.prospecting`;
export const PROSPECTING_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.prospectingTrigger`;
export const PROSPECTING_POLL_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.prospectingPollTrigger`;

/** The start node of a test workflow: passes on the run's input items (see HarnessStartNode). */
export const START_NODE = {
	id: 'start',
	name: 'Start',
	type: START_NODE_TYPE,
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

const repositoryRoot = path.resolve(__dirname, '..', '..');

/**
 * Start node registered as `n8n-nodes-base.manualTrigger`: passes on the items the harness puts on
 * the execution stack (the run's `inputItems`, or one empty item), like n8n's own test harness feeds
 * its trigger input.
 */
class HarnessStartNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'When clicking ‘Execute workflow’',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the test workflow with the items the test supplies',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

type NodeTypeSource = () => INodeType | IVersionedNodeType;

function fromSource(relativeFile: string, className: string): NodeTypeSource {
	return () => {
		const file = path.join(repositoryRoot, relativeFile);
		let loaded: Record<string, unknown>;
		try {
			// Required at call time: the file may not exist yet when the harness itself is tested.
			loaded = require(file) as Record<string, unknown>;
		} catch (error) {
			throw new ApplicationError(`Cannot load node class ${className} from ${relativeFile}`, {
				cause: error,
			});
		}
		const NodeClass = loaded[className] as (new () => INodeType | IVersionedNodeType) | undefined;
		if (typeof NodeClass !== 'function') {
			throw new ApplicationError(`${relativeFile} does not export a class named ${className}`);
		}
		return new NodeClass();
	};
}

const sources = new Map<string, NodeTypeSource>();
const instances = new Map<string, INodeType | IVersionedNodeType>();

function addSource(names: string[], source: NodeTypeSource) {
	for (const name of names) {
		sources.set(name, source);
		instances.delete(name);
	}
}

const prospectingSource = fromSource('nodes/Prospecting/Prospecting.node.ts', 'Prospecting');
const triggerSource = fromSource('nodes/Prospecting/ProspectingTrigger.node.ts', 'ProspectingTrigger');
addSource([PROSPECTING_NODE_TYPE, 'prospecting'], prospectingSource);
addSource([PROSPECTING_TRIGGER_NODE_TYPE, 'prospectingTrigger'], triggerSource);
addSource(
	[PROSPECTING_POLL_TRIGGER_NODE_TYPE, 'prospectingPollTrigger'],
	fromSource('nodes/Prospecting/ProspectingPollTrigger.node.ts', 'ProspectingPollTrigger'),
);
addSource([START_NODE_TYPE], () => new HarnessStartNode());

/**
 * Makes a node type available to every workflow run in this worker (for example a small test node).
 * Pass an instance or a factory; the type is looked up by the `type` of the workflow's node.
 */
export function registerNodeType(name: string, nodeType: INodeType | IVersionedNodeType | NodeTypeSource) {
	addSource([name], typeof nodeType === 'function' ? nodeType : () => nodeType);
}

function load(name: string): INodeType | IVersionedNodeType {
	const cached = instances.get(name);
	if (cached) return cached;
	const source = sources.get(name);
	if (!source) {
		throw new ApplicationError(`Unknown node type "${name}" in the test workflow`, {
			extra: { known: [...sources.keys()] },
		});
	}
	const instance = source();
	// The same instance must serve every alias, so static caches inside a node behave as in n8n.
	for (const [alias, aliasSource] of sources) {
		if (aliasSource === source) instances.set(alias, instance);
	}
	return instance;
}

/** INodeTypes as n8n-core's Workflow and contexts use it. */
export const nodeTypes: INodeTypes = {
	getByName(name: string) {
		return load(name);
	},
	getByNameAndVersion(name: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(load(name), version);
	},
	getKnownTypes(): IDataObject {
		return Object.fromEntries([...sources.keys()].map((name) => [name, { className: name, sourcePath: '' }]));
	},
};
