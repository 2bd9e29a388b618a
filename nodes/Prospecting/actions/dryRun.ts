/**
 * The service has no test environment: every write changes the account's production data. Before a
 * write is sent, `guardWrite` decides whether it is sent, shown as a dry run, or stopped with an error,
 * from the node's Dry Run parameter, the credential's "Writes in Manual Runs" and n8n's execution mode.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { MultiValueFormat } from '../helpers/account';
import { buildQuery, credentialsOf, normaliseBaseUrl } from '../helpers/account';
import { redactText, redactValue } from '../helpers/secrets';
import { withOutcome } from '../helpers/outcome';
import { inputError } from './inputError';

/** The node's Dry Run parameter. */
export const DRY_RUN_CHOICES = ['credential', 'always', 'never'] as const;
export type DryRunChoice = (typeof DRY_RUN_CHOICES)[number];

/** The credential's "Writes in Manual Runs". */
export const MANUAL_WRITE_CHOICES = ['dryRun', 'ask', 'send'] as const;
export type ManualWriteChoice = (typeof MANUAL_WRITE_CHOICES)[number];
/** What a credential saved before the setting existed, or one n8n gives without defaults, gets. */
export const DEFAULT_MANUAL_WRITES: ManualWriteChoice = 'dryRun';

/**
 * Runs started by a person building or testing the workflow: the editor's Execute step and Execute
 * workflow, the test webhook URL and the editor chat (all 'manual' in n8n 1.x and 2.x, also when this node
 * runs as an AI Agent's tool), and evaluation runs over a data set. Everything else (trigger, webhook,
 * chat, retry, integrated, cli, error, internal, agent) is a production run. A sub-workflow runs as
 * 'integrated' whoever called it, and n8n gives its nodes no public way to learn how the root run started
 * (getMode() and the execution context's source both say 'integrated'), so its writes are sent.
 */
const MANUAL_MODES: readonly string[] = ['manual', 'evaluation'];

export function isManualMode(mode: WorkflowExecuteMode | string | undefined): boolean {
	return MANUAL_MODES.includes(String(mode ?? ''));
}

export interface WriteRequest {
	method: IHttpRequestMethods;
	/** Path under /api/v1, as it would be sent (ids already encoded). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	multiValueFormat?: MultiValueFormat;
}

export interface WriteGuard {
	/** Which operation, for messages: 'Lead Create'. */
	operation: string;
	itemIndex: number;
	request: WriteRequest;
	/** What the service would answer, when it is known without writing (e.g. the lead that already exists). */
	wouldReturn?: IDataObject;
	/** Replaces the default message (e.g. when no request would be sent at all). */
	message?: string;
	/** True when the write would not be sent even for real (the request is shown as null). */
	noRequest?: boolean;
	/** Reads (only in a dry run) what the service would answer: the result, and a sentence for the message. */
	preview?: () => Promise<{ wouldReturn?: IDataObject; note?: string }>;
}

type Decision = { action: 'send' } | { action: 'dryRun'; reason: string } | { action: 'ask' };

function modeOf(context: IExecuteFunctions): string {
	try {
		return String(context.getMode?.() ?? '');
	} catch {
		return '';
	}
}

/** Reads the node's Dry Run parameter of item i (also when set by an expression). */
export function dryRunChoice(this: IExecuteFunctions, i: number): DryRunChoice {
	const value = this.getNodeParameter('dryRun', i, 'credential') as unknown;
	if (value === undefined || value === null) return 'credential';
	if (typeof value === 'boolean') return value ? 'always' : 'never';
	if (typeof value !== 'string') {
		const got = Array.isArray(value) ? 'a list' : typeof value;
		throw inputError(
			this.getNode(),
			i,
			'dryRun',
			`expected one of ${DRY_RUN_CHOICES.join(', ')} (or true / false), got ${got}`,
		);
	}
	const text = String(value).trim().toLowerCase();
	if (text === '') return 'credential';
	if (text === 'true') return 'always';
	if (text === 'false') return 'never';
	const match = DRY_RUN_CHOICES.find((choice) => choice === text);
	if (!match) {
		throw inputError(
			this.getNode(),
			i,
			'dryRun',
			`"${value.slice(0, 60)}" is not one of ${DRY_RUN_CHOICES.join(', ')} (or true / false)`,
		);
	}
	return match;
}

async function decide(this: IExecuteFunctions, i: number): Promise<Decision> {
	const choice = dryRunChoice.call(this, i);
	if (choice === 'always') return { action: 'dryRun', reason: 'the node\'s Dry Run is "Always Dry Run"' };
	if (choice === 'never') return { action: 'send' };
	if (!isManualMode(modeOf(this))) return { action: 'send' };
	const credentials = (await credentialsOf(this)) as { manualWrites?: unknown };
	const stored = String(credentials?.manualWrites ?? '').trim();
	const setting =
		MANUAL_WRITE_CHOICES.find((entry) => entry === stored) ?? DEFAULT_MANUAL_WRITES;
	if (setting === 'send') return { action: 'send' };
	if (setting === 'ask') return { action: 'ask' };
	return {
		action: 'dryRun',
		reason: 'this is a manual run and the credential\'s "Writes in Manual Runs" is "Dry Run"',
	};
}

/** One hint per node run, not one per item. */
const hinted = new WeakSet<object>();

function addHint(context: IExecuteFunctions, message: string): void {
	if (hinted.has(context) || typeof context.addExecutionHints !== 'function') return;
	hinted.add(context);
	try {
		context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	} catch {
		// n8n versions without hints still get the message in the output.
	}
}

/**
 * Call right before a write, after every check and read. Returns undefined when the write is to be sent;
 * returns the dry-run output item when it is not; throws (for this item) on "Stop With Error".
 */
export async function guardWrite(
	this: IExecuteFunctions,
	guard: WriteGuard,
): Promise<INodeExecutionData[] | undefined> {
	const decision = await decide.call(this, guard.itemIndex);
	if (decision.action === 'send') return undefined;
	const credentials = await credentialsOf(this);
	const secret = String(credentials?.apiKey ?? '');
	const { method } = guard.request;
	// An id typed into a field lands in the path: keep the key out of the message even then.
	const path = redactText(guard.request.path, secret);
	if (decision.action === 'ask') {
		// Nothing would be written anyway (e.g. the lead exists): there is nothing to ask about.
		if (guard.noRequest) return undefined;
		throw withOutcome(new NodeOperationError(
			this.getNode(),
			`${guard.operation} would write to production: ${method} ${path} changes the account's real data, and the service has no test environment. Nothing was sent (item ${guard.itemIndex})`,
			{
				itemIndex: guard.itemIndex,
				description:
					'The Prospecting API credential\'s "Writes in Manual Runs" is "Stop With Error". To send this write from the editor, set this node\'s "Dry Run" to "Always Send" (this node only) or the credential\'s "Writes in Manual Runs" to "Send to Production" (every node using it). To see the request without sending it, choose "Dry Run" in either place. Active workflows are not affected: they always send.',
			},
		), 'notSent');
	}

	const baseUrl = normaliseBaseUrl(credentials?.baseUrl);
	const format = guard.request.multiValueFormat ?? 'repeat';
	const preview = guard.preview ? await guard.preview() : {};
	const message =
		guard.message ??
		`Dry run: nothing was written. ${guard.operation} would send ${method} ${path}; ${decision.reason}.${preview.note ? ` ${preview.note}` : ''}`;
	const json: IDataObject = {
		dryRun: true,
		written: false,
		message,
		operation: guard.operation,
		request: guard.noRequest
			? null
			: {
					method,
					url: `${baseUrl}/api/v1${path}`,
					path,
					// The key is added by the credential when a request is sent; it is never part of this.
					query: buildQuery(guard.request.qs, format),
					body: guard.request.body ?? null,
				},
	};
	const wouldReturn = guard.wouldReturn ?? preview.wouldReturn;
	if (wouldReturn !== undefined) json.wouldReturn = wouldReturn;
	addHint(
		this,
		`Dry run: nothing was written to the service (${decision.reason}). Each item shows the request it would send.`,
	);
	return [{ json: redactValue(json, secret) }];
}
