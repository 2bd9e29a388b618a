import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { accountKey } from '../../helpers/account';
import { asNodeError } from '../../helpers/nodeError';
import { outcomeOf } from '../../helpers/outcome';
import { unwrapRecord } from '../../shared/records';
import { prospectingApiRequest } from '../../transport/request';
import { earliestCreatedAt } from '../../transport/serviceClock';
import { guardWrite } from '../dryRun';
import { booleanValue, secondsOption, writeSettings } from '../parameters';
import { inContactTurn, writeOnce, type ContactTurn } from '../writeMemory';
import { DEFAULT_LOST_LEAD_SEARCH_SECONDS, lookForLostLead, mayExistError, searchBeforeSending, type SentCreate as Look } from './lostLead';
import { hasContactOf, isTheLeadSent, leadFromParameters, matchesEverythingSent, type SentLead } from './sentLead';
import { simplifyLead, simplifyLeadsWanted } from './simplify';

export { description } from './create.description';

/** Whether the lead of an item was created by this node or already there (Skip If Exists, a lost answer's look, a retry). */
export type LeadOutcome = 'created' | 'found';

/** One item's create: its lead, its options, and the account its contacts' turn is kept for. */
async function createOf(context: IExecuteFunctions, i: number) {
	const options = context.getNodeParameter('options', i, {}) as IDataObject;
	return {
		context,
		i,
		lead: leadFromParameters.call(context, i),
		account: await accountKey(context),
		settings: writeSettings.call(context, i),
		windowMs: secondsOption.call(context, i, options, 'lostLeadSearch', DEFAULT_LOST_LEAD_SEARCH_SECONDS) * 1000,
		skipIfExists: booleanValue.call(context, i, 'options.skipIfExists', options.skipIfExists, false),
		sendAgain: booleanValue.call(context, i, 'options.retryWhenNotCreated', options.retryWhenNotCreated, false),
		simplify: simplifyLeadsWanted.call(context, i),
	};
}
type Create = Awaited<ReturnType<typeof createOf>>;

/**
 * Lead Create returns the lead of each item, created or found. Steps: Skip If Exists' search (and a create of the
 * contact still in doubt); the dry run; a retried execution's search; the send; a lost answer's look. A create is sent
 * at most once per execution item whatever Retry On Fail does (writeOnce); docs/dev/writes.md tells why each step.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const c = await createOf(this, i);
	// Creates that look before sending (Skip If Exists, a retried execution) go one at a time per contact; others go
	// beside them. Every create whose outcome is not settled leaves its contacts in doubt for those that look first.
	const looksFirst = c.skipIfExists || this.getMode() === 'retry';
	const inTurn = async (task: (turn: ContactTurn<SentLead>) => Promise<INodeExecutionData[]>) => await inContactTurn(c.account, c.lead.keys, task, looksFirst);
	return await writeOnce<Look>(this, i, {
		send: async (sending) => await inTurn(async (turn) => await findOrSend(c, turn, sending)),
		// An earlier try of this item sent it, its outcome unknown: look on, as it sent it; never send again.
		again: async (earlier) => await inTurn(async (turn) => await lookFor(c, turn, earlier, ['an earlier try of this node (Retry On Fail) sent POST /leads; its outcome stayed unknown'], true)),
	});
}

async function findOrSend(c: Create, turn: ContactTurn<SentLead>, sending: (look: Look) => void): Promise<INodeExecutionData[]> {
	const request = { method: 'POST' as const, path: '/leads', body: c.lead.body };
	const known: string[] = [];
	if (c.skipIfExists || c.context.getMode() === 'retry') {
		const { existing, listed } = await searchBeforeSending.call(c.context, c.lead, c.skipIfExists, c.settings);
		if (existing && c.skipIfExists) {
			const message = `Dry run: nothing was written. A lead with this contact exists (id ${String(existing.id)}), so Lead Create would send nothing and return it (in wouldReturn).`;
			const dryRun = await guardWrite.call(c.context, { operation: 'Lead Create', itemIndex: c.i, request, noRequest: true, wouldReturn: existing, message });
			return dryRun ?? settled(c, turn, existing, 'found');
		}
		// A retried execution takes the newest lead with every field sent as its own, an earlier create's or not.
		if (existing) return settled(c, turn, existing, 'found');
		known.push(...listed);
		// An earlier create of this lead in this n8n may still be committed: look for it rather than send a second.
		const { doubt } = turn;
		if (doubt && (c.skipIfExists ? hasContactOf(doubt.sent, c.lead.keys, c.lead.sent.name) : matchesEverythingSent(doubt.sent, c.lead.sent))) {
			const [ago, more] = [Date.now() - doubt.sentAt, doubt.until - Date.now()].map((ms) => Math.round(ms / 1000));
			const tried = `an earlier execution in this n8n sent POST /leads for ${c.lead.contact} ${ago} s ago; its outcome is unknown, so this one did not send, and the contact stays in doubt for ${more} s more`;
			return await lookFor(c, turn, { ...doubt, known }, [tried], false);
		}
	}
	return (await guardWrite.call(c.context, { operation: 'Lead Create', itemIndex: c.i, request })) ?? (await send(c, turn, sending, known));
}

/**
 * Sends the create. A confirmed answer is the lead created; a proven refusal fails the item (the transport sent it once
 * more if it never reached the service). An unknown outcome is looked for; Send Again If Not Found sends once more when
 * every search ran, on a known clock, and found nothing. Once an item's outcome is unknown, it stays unknown unless its
 * lead is found.
 */
async function send(c: Create, turn: ContactTurn<SentLead>, sending: (look: Look) => void, known: string[]): Promise<INodeExecutionData[]> {
	const look: Look = { sentAt: Date.now(), sent: c.lead.sent, windowMs: c.windowMs, known };
	const [tried, node] = [[] as string[], c.context.getNode()];
	let unknown: unknown;
	sending(look);
	turn.inDoubt(look);
	for (;;) {
		const [sentAt, again] = [Date.now(), unknown !== undefined];
		try {
			const expect = { record: 'required' as const, isWritten: (lead: object) => isTheLeadSent(lead, c.lead.sent, { known, earliestCreatedAt: earliestCreatedAt(c.account, sentAt).at }, true) };
			return settled(c, turn, unwrapRecord(await prospectingApiRequest.call(c.context, 'POST', '/leads', { ...c.settings, body: c.lead.body, expect })) ?? {}, 'created');
		} catch (error) {
			const words = asNodeError(node, error).message;
			if (outcomeOf(error) !== 'unknown') {
				if (again) throw mayExistError(node, unknown, { contact: c.lead.contact, tried: [...tried, `POST /leads sent again; ${words}`], itemIndex: c.i });
				turn.settled();
				throw asNodeError(node, error);
			}
			unknown ??= error;
			c.context.logger.info(`Prospecting: the outcome of the create for ${c.lead.contact} is unknown (${words}); looking for its lead for up to ${c.windowMs / 1000} s before the item goes on (item ${c.i})`);
			const search = await lookForLostLead.call(c.context, lookAt(c, look, sentAt));
			if (search.lead) return settled(c, turn, search.lead, 'found');
			tried.push(`POST /leads sent${again ? ' again' : ''}; its outcome is unknown (${words})`);
			// A failed search may have missed the lead, and on an unknown clock a late-stamped one too.
			if (again || !(c.sendAgain && search.failures.length === 0 && search.measured)) throw mayExistError(node, error, { contact: c.lead.contact, tried, search, itemIndex: c.i });
		}
	}
}

/** Looks for the lead of an earlier send; only the item's own look (a later try) keeps its contacts in doubt longer. */
async function lookFor(c: Create, turn: ContactTurn<SentLead>, earlier: Look, tried: string[], own: boolean): Promise<INodeExecutionData[]> {
	const search = await lookForLostLead.call(c.context, lookAt(c, earlier, earlier.sentAt));
	if (search.lead) return settled(c, turn, search.lead, 'found');
	if (own) turn.inDoubt(earlier);
	throw mayExistError(c.context.getNode(), undefined, { contact: c.lead.contact, tried, search, itemIndex: c.i });
}

/** A look for the lead of `look`, searching from `from` (its send, or the send again). */
const lookAt = (c: Create, look: Look, from: number) => ({ ...look, contact: c.lead.contact, account: c.account, from, settings: c.settings });

function settled(c: Create, turn: ContactTurn<SentLead>, lead: IDataObject, outcome: LeadOutcome): INodeExecutionData[] {
	turn.settled();
	return [{ json: { ...(c.simplify ? simplifyLead(lead) : lead), leadOutcome: outcome } }];
}
