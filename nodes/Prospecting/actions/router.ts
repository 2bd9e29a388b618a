import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { redactText } from '../helpers/secrets';
import type { WriteOutcome } from '../helpers/outcome';
import { outcomeOf, withOutcome } from '../helpers/outcome';
import * as conversationThread from './conversationThread';
import * as customField from './customField';
import * as lead from './lead';
import type { ProspectingMap, ProspectingResource } from './node.type';
import * as prospection from './prospection';
import * as routine from './routine';
import { agentOutput, isToolForm, messageForAgent, raiseToolErrors, shapeForAgent } from './tool';
import * as webhook from './webhook';
import { duringTry } from './writeMemory';

type Operation = { execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> };

const resources: { [R in ProspectingResource]: Record<ProspectingMap[R], Operation> } = {
	lead,
	routine,
	prospection,
	customField,
	conversationThread,
	webhook,
};

function findOperation(resource: string, operation: string): Operation | undefined {
	const operations = (resources as Record<string, Record<string, Operation>>)[resource];
	if (!operations || !Object.prototype.hasOwnProperty.call(operations, operation)) return undefined;
	const candidate = operations[operation];
	return typeof candidate?.execute === 'function' ? candidate : undefined;
}

/** Operations that write: their errors say what the write did to the service's data. */
const WRITE_OPERATIONS = new Set(['lead.create', 'routine.addLead', 'webhook.create', 'webhook.delete']);

/**
 * What a failed write did, for a workflow to branch on: the outcome its error carries, or 'unknown' when nothing
 * proves it (an error the node did not mark may have come after the send).
 */
function writeOutcome(error: unknown): WriteOutcome {
	return outcomeOf(error) ?? 'unknown';
}

/** The API key, to scrub it from errors that did not come from the transport. */
async function apiKey(this: IExecuteFunctions): Promise<string | undefined> {
	try {
		const credentials = await this.getCredentials<{ apiKey?: string }>('prospectingApi');
		return credentials?.apiKey ? String(credentials.apiKey) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Runs the chosen operation once per input item. Output items are paired with their input;
 * with Continue On Fail a failing item yields an error item and the others go on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// One try of the node: n8n's Retry On Fail may run it again, and the writes' memory knows until when.
	return await duringTry(this, async () => await runItems.call(this));
}

async function runItems(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	const asTool = isToolForm.call(this);

	for (let i = 0; i < items.length; i++) {
		let isWrite = false;
		try {
			const resource = String(this.getNodeParameter('resource', i));
			if (!Object.prototype.hasOwnProperty.call(resources, resource)) {
				// n8n cannot even read the operation of a resource it does not know.
				throw new NodeOperationError(
					this.getNode(),
					`The resource "${resource}" is not known (item ${i})`,
					{ itemIndex: i },
				);
			}
			const operation = String(this.getNodeParameter('operation', i));
			const handler = findOperation(resource, operation);
			isWrite = WRITE_OPERATIONS.has(`${resource}.${operation}`);
			if (!handler) {
				throw new NodeOperationError(
					this.getNode(),
					`The operation "${operation}" of resource "${resource}" is not known (item ${i})`,
					{ itemIndex: i },
				);
			}
			const output = asTool ? agentOutput.call(this, i) : undefined;
			let results = await handler.execute.call(this, i);
			if (output) results = shapeForAgent(results, output);
			for (const result of results) returnData.push({ ...result, pairedItem: { item: i } });
		} catch (caught) {
			// A cancelled execution reaches n8n as it is (so the run is marked cancelled), even with Continue On Fail.
			if (/Cancel+edError$/.test(String(caught?.name ?? caught?.constructor?.name ?? ''))) {
				const cancellation: Error = caught;
				throw cancellation;
			}
			const secret = await apiKey.call(this);
			const error =
				caught instanceof NodeOperationError || caught?.name === 'NodeApiError'
					? caught
					: new NodeOperationError(
							this.getNode(),
							redactText(String(caught?.message ?? caught), secret),
							{
								itemIndex: i,
							},
						);
			if (error.context && error.context.itemIndex === undefined) error.context.itemIndex = i;
			const outcome = isWrite ? writeOutcome(error) : undefined;
			if (outcome) withOutcome(error, outcome);
			if (asTool) {
				// An agent's tool answers with the error as text, so the model can correct its arguments: n8n 1.x fails
				// the whole agent run on a tool that throws.
				// With Errors on "Raise as Tool Error" the tool fails instead (MCP clients see a tool error), with the
				// message and the field in the message: n8n 1.x's MCP Server Trigger shows the message only.
				const message = redactText(messageForAgent(String(error.message), error.description), secret);
				if (raiseToolErrors.call(this, i)) {
					const raised = new NodeOperationError(this.getNode(), message, { itemIndex: i });
					throw outcome ? withOutcome(raised, outcome) : raised;
				}
				returnData.push({ json: { error: message }, pairedItem: { item: i } });
				continue;
			}
			if (this.continueOnFail()) {
				const json: IDataObject = {
					error: redactText(String(error.message), secret),
					itemIndex: i,
				};
				if (error.description) json.description = redactText(String(error.description), secret);
				if (error.httpCode) json.httpCode = String(error.httpCode);
				if (outcome) json.writeOutcome = outcome;
				// With "On Error: Continue (using error output)" n8n routes an item to the error branch by its `error`
				// (an item whose json has more keys than error/message/details would stay on the success branch).
				const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
				returnData.push({ json, ...(toErrorOutput ? { error } : {}), pairedItem: { item: i } });
				continue;
			}
			throw error;
		}
	}

	return [returnData];
}
