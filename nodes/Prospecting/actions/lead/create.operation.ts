import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { accountKey } from '../../helpers/account';
import { asNodeError } from '../../helpers/nodeError';
import { outcomeOf } from '../../helpers/outcome';
import { unwrapRecord } from '../../shared/records';
import { prospectingApiRequest } from '../../transport/request';
import { earliestCreatedAt } from '../../transport/serviceClock';
import { guardWrite } from '../dryRun';
import { booleanValue, secondsOption, writeSettings } from '../parameters';
import { writeOnce } from '../writeMemory';
import { DEFAULT_LOST_LEAD_SEARCH_SECONDS, lookForLostLead, mayExistError, searchBeforeSending, type SentCreate } from './lostLead';
import { hasContactOf, isTheLeadSent, leadFromParameters, matchesEverythingSent } from './sentLead';
import { simplifyLead, simplifyLeadsWanted } from './simplify';

export { description } from './create.description';

/** One item's create: its lead, its options, and the account its contacts' turn is kept for. */
async function createOf(context: IExecuteFunctions, i: number) {
	const options = context.getNodeParameter('options', i, {}) as IDataObject;
	const skipIfExists = booleanValue.call(context, i, 'options.skipIfExists', options.skipIfExists, false);
	return {
		context,
		i,
		lead: leadFromParameters.call(context, i),
		account: await accountKey(context),
		settings: writeSettings.call(context, i),
		windowMs: secondsOption.call(context, i, options, 'lostLeadSearch', DEFAULT_LOST_LEAD_SEARCH_SECONDS) * 1000,
		skipIfExists,
		// Skip If Exists and a retried execution look before sending.
		looksFirst: skipIfExists || context.getMode() === 'retry',
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
	return await writeOnce<SentCreate>(this, i, {
		contacts: { account: c.account, keys: c.lead.keys, waits: c.looksFirst },
		send: async (sending, doubt) => await findOrSend(c, sending, doubt),
		again: async (earlier) => await lookFor(c, earlier, ['an earlier try of this node (Retry On Fail) sent POST /leads; its outcome stayed unknown']),
	});
}

async function findOrSend(c: Create, sending: (look: SentCreate) => void, doubt?: SentCreate & { until: number }): Promise<INodeExecutionData[]> {
	const request = { method: 'POST' as const, path: '/leads', body: c.lead.body };
	const known: string[] = [];
	if (c.looksFirst) {
		const { existing, listed } = await searchBeforeSending.call(c.context, c.lead, c.skipIfExists, c.settings);
		// Skip If Exists takes the oldest lead with a contact; a retried execution the newest with every field sent, as its own.
		if (existing) {
			const message = `Dry run: nothing was written. A lead with this contact exists (id ${String(existing.id)}), so Lead Create would send nothing and return it (in wouldReturn).`;
			return (await guardWrite.call(c.context, { operation: 'Lead Create', itemIndex: c.i, request, noRequest: true, wouldReturn: existing, message })) ?? output(c, existing, 'found');
		}
		known.push(...listed);
		// An earlier create of this lead in this n8n may still be committed: look for it rather than send a second.
		if (doubt && (c.skipIfExists ? hasContactOf(doubt.sent, c.lead.keys, c.lead.sent.name) : matchesEverythingSent(doubt.sent, c.lead.sent))) {
			const [ago, more] = [Date.now() - doubt.sentAt, doubt.until - Date.now()].map((ms) => Math.round(ms / 1000));
			const lasts = doubt.until === Infinity ? 'while that create still looks for its lead' : `for ${more} s more`;
			const tried = `an earlier execution in this n8n sent POST /leads for ${c.lead.contact} ${ago} s ago; its outcome is unknown, so this one did not send, and the contact stays in doubt ${lasts}`;
			return await lookFor(c, { ...doubt, known }, [tried]);
		}
	}
	return (await guardWrite.call(c.context, { operation: 'Lead Create', itemIndex: c.i, request })) ?? (await send(c, sending, known));
}

/**
 * Sends the create: its answer is the lead created, a proven refusal fails the item. An unknown outcome is looked for
 * and, with Send Again If Not Found, sent once more when every search ran on a known clock and found nothing; once
 * unknown, the item's outcome stays unknown unless its lead is found.
 */
async function send(c: Create, sending: (look: SentCreate) => void, known: string[]): Promise<INodeExecutionData[]> {
	const look: SentCreate = { sentAt: Date.now(), sent: c.lead.sent, windowMs: c.windowMs, known };
	const [tried, node] = [[] as string[], c.context.getNode()];
	let unknown: unknown;
	sending(look);
	for (;;) {
		const [sentAt, again] = [Date.now(), unknown !== undefined];
		try {
			const expect = { record: 'required' as const, isWritten: (lead: object) => isTheLeadSent(lead, look, earliestCreatedAt(c.account, sentAt).at, true) };
			return output(c, unwrapRecord(await prospectingApiRequest.call(c.context, 'POST', '/leads', { ...c.settings, body: c.lead.body, expect })) ?? {}, 'created');
		} catch (error) {
			const words = asNodeError(node, error).message;
			if (outcomeOf(error) !== 'unknown') {
				if (again) throw mayExistError(node, unknown, { contact: c.lead.contact, tried: [...tried, `POST /leads sent again; ${words}`], itemIndex: c.i });
				throw asNodeError(node, error);
			}
			unknown ??= error;
			c.context.logger.info(`Prospecting: the outcome of the create for ${c.lead.contact} is unknown (${words}); looking for its lead for up to ${c.windowMs / 1000} s before the item goes on (item ${c.i})`);
			const search = await lookForLostLead.call(c.context, lookAt(c, look, sentAt));
			if (search.lead) return output(c, search.lead, 'found');
			tried.push(`POST /leads sent${again ? ' again' : ''}; its outcome is unknown (${words})`);
			// A failed search may have missed the lead, and on an unknown clock a late-stamped one too.
			if (again || !(c.sendAgain && search.failures.length === 0 && search.measured)) throw mayExistError(node, error, { contact: c.lead.contact, tried, search, itemIndex: c.i });
		}
	}
}

/** Looks for the lead of an earlier send, this item's (a later try) or another execution's. */
async function lookFor(c: Create, earlier: SentCreate, tried: string[]): Promise<INodeExecutionData[]> {
	const search = await lookForLostLead.call(c.context, lookAt(c, earlier, earlier.sentAt));
	if (search.lead) return output(c, search.lead, 'found');
	throw mayExistError(c.context.getNode(), undefined, { contact: c.lead.contact, tried, search, itemIndex: c.i });
}

/** A look for the lead of `look`, searching from `from` (its send, or the send again). */
const lookAt = (c: Create, look: SentCreate, from: number) => ({ ...look, contact: c.lead.contact, account: c.account, from, settings: c.settings });

/** The item's lead; leadOutcome says whether this node created it or found it (Skip If Exists, a look, a retry). */
function output(c: Create, lead: IDataObject, outcome: 'created' | 'found'): INodeExecutionData[] {
	return [{ json: { ...(c.simplify ? simplifyLead(lead) : lead), leadOutcome: outcome } }];
}
