import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isCredentialFault } from '../helpers/credentialFault';
import { isOutcomeUnknown, outcomeOf, withOutcome } from '../helpers/outcome';
import { EventListError, sameEvents, subscribedEvents } from './events';
import { forgetWebhook, isComplete, keepWebhook, keptEntry } from './keptWebhooks';
import { sameUrl } from '../shared/webhooks';
import { createRemoteWebhook, deleteRemoteWebhook, listRemoteWebhooks } from './remoteWebhooks';

/** Longest webhook name sent to the service; the spec gives no limit, so stay modest. */
const MAX_NAME_LENGTH = 120;

/**
 * The error's message, and its description when it has one: the service's own words travel there, and reach the
 * user whole (the transport already caps them). None repeats its message: n8n drops one that would, and the
 * transport's name the call.
 */
function reasonOf(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	// Object(): a thrown null or text has no description.
	const { description } = Object(error) as { description?: string | null };
	return description ? `${message} (${description})` : message;
}

/** What to do before activating again: an error about the credential waits for it to be corrected, not for the service. */
function activateAgain(error: unknown): string {
	return isCredentialFault(error)
		? 'Activate the workflow again once the Prospecting API credential is corrected.'
		: 'Activate the workflow again once the service answers.';
}

/** The node declares its 'default' webhook, so n8n always has a URL for it. */
function webhookUrlOf(context: IHookFunctions): string {
	return context.getNodeWebhookUrl('default') as string;
}

function wantedEvents(context: IHookFunctions): string[] {
	try {
		// n8n fills in both parameters' defaults before any webhook method runs.
		return subscribedEvents(context.getNodeParameter('events'), context.getNodeParameter('otherEvents'));
	} catch (error) {
		const message = error instanceof EventListError ? error.message : reasonOf(error);
		throw new NodeOperationError(context.getNode(), `Events: ${message}`);
	}
}

/** Test registrations come from "listen for test event", which n8n runs in manual mode (activation mode too). */
function isTestRegistration(context: IHookFunctions): boolean {
	return context.getMode() === 'manual';
}

/** A name that tells a person looking at the service's webhook list where the webhook comes from. */
function webhookName(context: IHookFunctions, test: boolean): string {
	const workflow = context.getWorkflow();
	const name = `n8n${test ? ' (test)' : ''}: ${workflow.name ?? workflow.id} / ${context.getNode().name}`;
	return name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH - 1)}…` : name;
}

/**
 * Removes every remote webhook registered for this node's URL, and only those: their secrets are
 * not known here, so deliveries they send could never be verified. Webhooks of other URLs are
 * never touched.
 */
async function removeWebhooksForUrl(context: IHookFunctions, url: string): Promise<number> {
	const remote = await listRemoteWebhooks.call(context);
	let removed = 0;
	for (const webhook of remote) {
		if (!sameUrl(webhook.url, url)) continue;
		await deleteRemoteWebhook.call(context, webhook.id);
		removed++;
	}
	return removed;
}

/**
 * checkExists: true only when the kept webhook (id and secret) is still registered with the same
 * URL and events. Anything else leaves nothing kept and returns false, so n8n calls create.
 */
export async function checkWebhookExists(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const url = webhookUrlOf(this);
	const kept = keptEntry(staticData, url);
	if (!isComplete(kept)) {
		// Without its secret a kept webhook is useless; create replaces whatever has this URL.
		forgetWebhook(staticData, url);
		return false;
	}

	const events = wantedEvents(this);
	let remote;
	try {
		remote = await listRemoteWebhooks.call(this);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`Could not check the webhook registered with the service: ${reasonOf(error)}`,
			{ description: `Nothing was changed. ${activateAgain(error)}` },
		);
	}

	const match = remote.find((webhook) => webhook.id === kept.id);
	const reusable =
		match !== undefined && sameUrl(match.url, url) && sameEvents(match.events, events);
	// Kept and reusable: other webhooks with this URL are strays whose secrets are unknown.
	// Otherwise (events changed by the user, and the service has no update endpoint) the kept one
	// goes too, and create registers a fresh one.
	const stale = remote.filter(
		(webhook) => sameUrl(webhook.url, url) && !(reusable && webhook.id === kept.id),
	);
	try {
		for (const webhook of stale) await deleteRemoteWebhook.call(this, webhook.id);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`Could not replace the webhook registered with the service: ${reasonOf(error)}`,
			{ description: activateAgain(error) },
		);
	}
	if (reusable) return true;
	forgetWebhook(staticData, url);
	return false;
}

/**
 * create: registers this node's URL for the chosen events and keeps the id and the secret.
 * Remote webhooks already pointing at this URL are removed first (their secrets are lost), so
 * exactly one remains. On failure nothing stays registered for this URL, as far as the service
 * can be reached to check.
 */
export async function createWebhook(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const url = webhookUrlOf(this);
	const events = wantedEvents(this);
	const test = isTestRegistration(this);
	forgetWebhook(staticData, url);

	try {
		await removeWebhooksForUrl(this, url);
	} catch (error) {
		throw withOutcome(
			new NodeOperationError(
				this.getNode(),
				`Could not register the webhook: the service's webhook list could not be read or cleaned up: ${reasonOf(error)}`,
				{ description: `No webhook was created. ${activateAgain(error)}` },
			),
			'notSent',
		);
	}

	let created;
	try {
		created = await createRemoteWebhook.call(this, { name: webhookName(this, test), url, events });
	} catch (error) {
		const cleanup = await cleanUpAfterFailedCreate(this, url);
		// A lost answer leaves the outcome open: a slow service may still register the webhook after the clean-up.
		const late = isOutcomeUnknown(error)
			? ' The service may still register the lost webhook later: its deliveries are refused (its secret is unknown), and the next activation removes it before creating one.'
			: '';
		throw withOutcome(
			new NodeOperationError(this.getNode(), `Could not register the webhook with the service: ${reasonOf(error)}`, {
				description: `${cleanup}${late}`,
			}),
			outcomeOf(error) ?? 'unknown',
		);
	}

	if (created.secret === undefined) {
		const cleanup = await cleanUpAfterFailedCreate(this, url);
		throw new NodeOperationError(
			this.getNode(),
			'The service created the webhook but its answer lacked the secret, so deliveries could not be verified',
			{ description: cleanup },
		);
	}

	keepWebhook(staticData, {
		id: created.id,
		url,
		secret: created.secret,
		events,
		test,
		keptAt: new Date().toISOString(),
	});
	return true;
}

/** After a failed create the request may still have reached the service: remove what it left. */
async function cleanUpAfterFailedCreate(context: IHookFunctions, url: string): Promise<string> {
	try {
		const removed = await removeWebhooksForUrl(context, url);
		return removed > 0
			? `The webhook the service had already created for this URL was removed again (${removed}). Activate the workflow again.`
			: 'No webhook was left registered for this URL. Activate the workflow again.';
	} catch (error) {
		return `The service could not be reached to check whether a webhook was left registered (${reasonOf(error)}). The next activation removes any webhook registered for this URL before creating a new one.`;
	}
}

/**
 * delete: removes the kept webhook. A 404 counts as success, and so does a delete whose answer was lost when the
 * webhook is no longer listed. Any other failure is raised and the entry stays kept, so the next activation finds
 * it and reuses or replaces it. n8n only logs the error of a deactivation and shows the user a normal one, and
 * once the workflow is deleted nobody holds the webhook's id: a warning in n8n's log names it.
 */
export async function deleteWebhook(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	const url = webhookUrlOf(this);
	const kept = keptEntry(staticData, url);
	if (kept === undefined) return true;
	if (typeof kept.id !== 'string' || kept.id === '') {
		forgetWebhook(staticData, url);
		return true;
	}

	try {
		await deleteRemoteWebhook.call(this, kept.id);
	} catch (error) {
		if (isOutcomeUnknown(error) && !(await isStillListed(this, kept.id))) {
			forgetWebhook(staticData, url);
			return true;
		}
		const reason = reasonOf(error);
		this.logger.warn(
			`Prospecting Trigger: webhook ${kept.id} could not be deleted from the service when workflow ${JSON.stringify(this.getWorkflow().name ?? this.getWorkflow().id)} was deactivated, and it may still send deliveries to ${url} (${reason}). The next activation of this workflow removes or reuses it; if the workflow is deleted, delete the webhook with the Prospecting node (Webhook → Get Many, then Webhook → Delete with id ${kept.id}).`,
		);
		throw withOutcome(
			new NodeOperationError(this.getNode(), `Could not remove webhook ${kept.id} from the service: ${reason}`, {
				description:
					'The webhook may still be registered. The next activation of this workflow removes or reuses it; it can also be deleted in the service or with the Prospecting node (Webhook > Delete).',
			}),
			outcomeOf(error) ?? 'unknown',
		);
	}
	forgetWebhook(staticData, url);
	return true;
}

/** After a delete whose answer was lost: listed still (or the list cannot be read) means not known to be gone. */
async function isStillListed(context: IHookFunctions, id: string): Promise<boolean> {
	try {
		return (await listRemoteWebhooks.call(context)).some((webhook) => webhook.id === id);
	} catch {
		return true;
	}
}
