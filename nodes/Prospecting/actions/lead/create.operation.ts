import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { accountKey } from '../../helpers/account';
import { asNodeError, isResponseLostError, isUnreachableError, withNote } from '../../helpers/errors';
import { unwrapRecord } from '../../shared/records';
import { cancelSignal, pause } from '../../transport/pause';
import { prospectingApiRequest, type ProspectingRequestOptions } from '../../transport/request';
import { earliestCreatedAt } from '../../transport/serviceClock';
import { guardWrite } from '../dryRun';
import { booleanValue, secondsOption, writeSettings } from '../parameters';
import { inContactTurn, writeOnce, type ContactTurn, type Doubt } from '../writeMemory';
import { hasContactOf } from './contacts';
import { mayExistError, triedLines } from './mayExist';
import { DEFAULT_LOST_LEAD_SEARCH_SECONDS, lookForLostLead, searchBeforeSending } from './search';
import { leadFromParameters, matchesEverythingSent, theLeadSent, type LeadToCreate, type SentLead } from './sentLead';
import { simplifyLead, simplifyLeadsWanted } from './simplify';

export { description } from './create.description';

/** Whether the lead of an item was created by this node or already there (Skip If Exists, a lost answer's search, a retry). */
export type LeadOutcome = 'created' | 'found';

/** Pause before sending again a create that never reached the service (a refused connection may be a restart). */
const NOT_SENT_PAUSE_MS = 1000;

/** One item's create: what it sends, its options, and the account its contacts' turn is kept for. */
interface Create {
	context: IExecuteFunctions;
	i: number;
	lead: LeadToCreate;
	account: string;
	settings: ProspectingRequestOptions;
	windowMs: number;
	skipIfExists: boolean;
	sendAgain: boolean;
	simplify: boolean;
}

/** What a later try (Retry On Fail) needs of a create sent with its outcome still unknown. */
interface Sent {
	sent: SentLead;
	known: string[];
}

/**
 * Lead Create: returns the lead of the item, created or found, sending its create at most once per execution item
 * (whatever n8n's Retry On Fail does) and one at a time per contact in this process. docs/dev/writes.md tells why.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const create: Create = {
		context: this,
		i,
		lead: leadFromParameters.call(this, i),
		account: await accountKey(this),
		settings: writeSettings.call(this, i),
		windowMs: secondsOption.call(this, i, options, 'lostLeadSearch', DEFAULT_LOST_LEAD_SEARCH_SECONDS) * 1000,
		skipIfExists: booleanValue.call(this, i, 'options.skipIfExists', options.skipIfExists, false),
		sendAgain: booleanValue.call(this, i, 'options.retryWhenNotCreated', options.retryWhenNotCreated, false),
		simplify: simplifyLeadsWanted.call(this, i),
	};
	// Creates that look before sending (Skip If Exists, a retried execution) go one at a time per contact; others do not wait.
	const looksFirst = create.skipIfExists || this.getMode() === 'retry';
	const inTurn = async (task: (turn: ContactTurn<SentLead>) => Promise<INodeExecutionData[]>) =>
		looksFirst ? await inContactTurn(create.account, create.lead.keys, task) : await task(NO_TURN);
	return await writeOnce<Sent>(this, i, {
		send: async (sending) => await inTurn(async (turn) => await findOrSend(create, turn, sending)),
		again: async (earlier) => {
			const doubt = { sentAt: earlier.sentAt, sent: earlier.detail.sent, windowMs: create.windowMs };
			const tried = ['an earlier try of this node (Retry On Fail) sent POST /leads; its outcome stayed unknown'];
			return await inTurn(async (turn) => await lookFor(create, turn, { doubt, known: earlier.detail.known, tried, own: true }));
		},
	});
}

/** A create that does not look before sending neither waits for its contacts nor leaves them in doubt. */
const NO_TURN: ContactTurn<SentLead> = { known: [], inDoubt: () => undefined, settled: () => undefined };

/** Skip If Exists' search and a contact in doubt; the dry run; a retried execution's check; then the create. */
async function findOrSend(c: Create, turn: ContactTurn<SentLead>, sending: (sent: Sent) => void): Promise<INodeExecutionData[]> {
	const retried = c.context.getMode() === 'retry';
	const known = [...turn.known];
	if (c.skipIfExists || retried) {
		const why = c.skipIfExists
			? `Skip If a Lead With This Contact Exists could not search for ${c.lead.contact} (GET /leads)`
			: `this execution retries a failed one, which may have created it, and the search for ${c.lead.contact} (GET /leads) failed`;
		const { existing, listed } = await searchBeforeSending.call(c.context, c.lead, { skipIfExists: c.skipIfExists, why }, c.settings);
		if (existing && c.skipIfExists) {
			// Nothing would be written for real either; a dry run still says so in its own shape.
			const message = `Dry run: nothing was written. A lead with this contact exists (id ${String(existing.id)}), so Lead Create would send nothing and return it (in wouldReturn).`;
			const dryRun = await guardWrite.call(c.context, { operation: 'Lead Create', itemIndex: c.i, request: leadRequest(c), noRequest: true, wouldReturn: existing, message });
			return dryRun ?? settled(c, turn, existing, 'found');
		}
		known.push(...listed);
		// An earlier create of this lead may still be committed: look for it, and never send a second one.
		const doubt = turn.doubt;
		const ours = doubt && (c.skipIfExists ? hasContactOf(doubt.sent, c.lead.keys, c.lead.sent.name) : matchesEverythingSent(doubt.sent, c.lead.sent));
		if (doubt && ours) {
			const ago = Math.round((Date.now() - doubt.sentAt) / 1000);
			const more = Math.ceil((doubt.until - Date.now()) / 1000);
			const tried = [`an earlier execution in this n8n sent POST /leads for ${c.lead.contact} ${ago} s ago; its outcome is unknown, so this one did not send, and the contact stays in doubt for ${more} s more`];
			return await lookFor(c, turn, { doubt, known, tried, own: false });
		}
		if (existing) return settled(c, turn, existing, 'found');
	}
	const dryRun = await guardWrite.call(c.context, { operation: 'Lead Create', itemIndex: c.i, request: leadRequest(c) });
	return dryRun ?? (await send(c, turn, sending, known));
}

/**
 * Sends the create. A confirmed answer is the lead created. Proven not applied, the item fails (once more after a
 * refused connection). An unknown outcome is looked for over the window; Send Again If Not Found sends once more when
 * every search ran, on a known clock, and found nothing. Once an outcome is unknown, the item's stays unknown.
 */
async function send(c: Create, turn: ContactTurn<SentLead>, sending: (sent: Sent) => void, known: string[]): Promise<INodeExecutionData[]> {
	const firstAt = Date.now();
	const tried: string[] = [];
	const doubt: Doubt<SentLead> = { sentAt: firstAt, sent: c.lead.sent, windowMs: c.windowMs };
	let unknown: unknown;
	sending({ sent: c.lead.sent, known });
	turn.inDoubt(doubt);
	for (let attempt = 1; ; attempt++) {
		const sentAt = Date.now();
		try {
			const expect = theLeadSent(c.lead.sent, { known, earliestCreatedAt: () => earliestCreatedAt(c.account, sentAt).at });
			const answer = await prospectingApiRequest.call(c.context, 'POST', '/leads', { ...c.settings, body: c.lead.body, expect });
			return settled(c, turn, unwrapRecord(answer) ?? {}, 'created');
		} catch (error) {
			const words = asNodeError(c.context.getNode(), error).message;
			if (!isResponseLostError(error)) {
				// A send proven not applied says nothing of an earlier one whose outcome stayed unknown.
				if (unknown !== undefined) throw mayExistError(c.context.getNode(), unknown, { contact: c.lead.contact, tried: [...tried, `POST /leads sent again; ${words}`], itemIndex: c.i });
				if (isUnreachableError(error) && attempt === 1) {
					tried.push(`POST /leads did not reach the service (${words})`);
					await pause(NOT_SENT_PAUSE_MS, cancelSignal(c.context));
					continue;
				}
				turn.settled();
				throw withNote(c.context.getNode(), error, triedLines(tried).join('\n'));
			}
			unknown ??= error;
			// The item is held here: say so, since it may be for minutes.
			c.context.logger.info(`Prospecting: the outcome of the create for ${c.lead.contact} is unknown (${words}); looking for its lead for up to ${c.windowMs / 1000} s before the item goes on (item ${c.i})`);
			const search = await lookForLostLead.call(c.context, { ...lostLeadLook(c, known), sentAt: firstAt, from: sentAt });
			if (search.lead) return settled(c, turn, search.lead, 'found');
			tried.push(`POST /leads sent${attempt > 1 ? ' again' : ''}; its outcome is unknown (${words})`);
			// A failed search may have missed the lead, and without the service's clock a late-stamped one too.
			if (!(c.sendAgain && attempt === 1 && search.failures.length === 0 && search.measured)) {
				throw mayExistError(c.context.getNode(), error, { contact: c.lead.contact, tried, search, itemIndex: c.i });
			}
		}
	}
}

/**
 * An earlier send whose outcome is unknown, of this item (a later try, `own`) or of another execution: look for its lead
 * over the rest of its window, never send. Only the item's own look keeps its contacts in doubt longer.
 */
async function lookFor(
	c: Create,
	turn: ContactTurn<SentLead>,
	earlier: { doubt: Doubt<SentLead>; known: string[]; tried: string[]; own: boolean },
): Promise<INodeExecutionData[]> {
	const { doubt } = earlier;
	const search = await lookForLostLead.call(c.context, { ...lostLeadLook(c, earlier.known), sent: doubt.sent, sentAt: doubt.sentAt, from: doubt.sentAt, windowMs: doubt.windowMs });
	if (search.lead) return settled(c, turn, search.lead, 'found');
	if (earlier.own) turn.inDoubt(doubt);
	throw mayExistError(c.context.getNode(), undefined, { contact: c.lead.contact, tried: earlier.tried, search, itemIndex: c.i });
}

const leadRequest = (c: Create) => ({ method: 'POST' as const, path: '/leads', body: c.lead.body });

const lostLeadLook = (c: Create, known: string[]) => ({
	account: c.account,
	contact: c.lead.contact,
	sent: c.lead.sent,
	known,
	windowMs: c.windowMs,
	deadlineAt: c.settings.deadlineAt,
	settings: c.settings,
});

/** The item's output, its lead known to this process from now on. */
function settled(c: Create, turn: ContactTurn<SentLead>, lead: IDataObject, outcome: LeadOutcome): INodeExecutionData[] {
	turn.settled(lead.id === undefined ? undefined : String(lead.id));
	return [{ json: { ...(c.simplify ? simplifyLead(lead) : lead), outcome } }];
}
