/**
 * Runs a Prospecting node the ways n8n runs it again: with Retry On Fail (node Settings), and as a retried
 * execution (Retry from the executions list: mode 'retry').
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { executeWorkflow, type WorkflowRunResult } from '../../dev/harness';
import type { Connection } from '../support/sandbox';
import { inLine, NODE_NAME, prospectingNamed, startNode } from './support';

export interface ReexecutionOptions {
	inputItems?: IDataObject[];
	continueOnFail?: boolean;
	/** Retry On Fail's Max Tries; 1 turns Retry On Fail off. */
	maxTries?: number;
	/** Retry On Fail's Wait Between Tries; 1 ms unless told (n8n reads 0 as its default, 1 s). */
	waitBetweenTriesMs?: number;
	/** 'retry': a retried execution, as Retry from the executions list starts it. */
	mode?: 'manual' | 'retry';
	typeVersion?: number;
}

/** Runs Start -> Prospecting with Retry On Fail on (3 tries unless told), as n8n's engine retries it. */
export async function runRetrying(
	parameters: INode['parameters'],
	connection: Connection,
	options: ReexecutionOptions = {},
): Promise<WorkflowRunResult & { items: IDataObject[] }> {
	const node: INode = {
		...prospectingNamed(NODE_NAME, parameters, options.typeVersion ?? 1),
		retryOnFail: options.maxTries !== 1,
		maxTries: options.maxTries ?? 3,
		waitBetweenTries: options.waitBetweenTriesMs ?? 1,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	const result = await executeWorkflow(inLine(startNode, node), {
		credentials: { prospectingApi: { baseUrl: connection.baseUrl, apiKey: connection.apiKey } },
		inputItems: options.inputItems,
		mode: options.mode,
	});
	return Object.assign(result, { items: result.error ? [] : result.output(NODE_NAME).map((item) => item.json) });
}

/** The outcome a failed write's error carries (the node's error, or n8n's copy of it). */
export function outcomeOf(error: unknown): unknown {
	return (error as { context?: IDataObject } | undefined)?.context?.writeOutcome;
}
