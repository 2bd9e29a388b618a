/**
 * In-memory data of one sandbox. Leads and prospections are kept in arrays sorted by (createdAt, id): new
 * records always get a createdAt later than every existing one, so they are appended and unfiltered pages are a slice.
 */
import { randomBytes } from 'node:crypto';
import {
	API_LEAD_ORIGIN,
	API_SOURCE_ID,
	API_USER_ID,
	DEFAULT_DATASET,
	generateActivities,
	generateDataset,
	PROSPECTION_STATUSES,
	USER_IDS,
} from './dataset';
import { notFound } from './errors';
import { makeId, SeededRandom } from './random';
import type {
	Activity,
	ConversationThread,
	CustomField,
	DatasetSizes,
	Lead,
	Prospection,
	ProspectionStatus,
	Routine,
	WebhookWithSecret,
} from './types';
import type { NewLead } from './validation';

export interface Page {
	/** JSON text of each record of the page. */
	items: string[];
	total: number;
}

export interface PageRequest {
	limit: number;
	page: number;
	descending: boolean;
}

function fold(text: string): string {
	return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** A page of an array already sorted ascending, optionally filtered; only the page's records are serialised. */
export function pageOf<T>(sorted: readonly T[], request: PageRequest, toJson: (item: T) => string, keep?: (item: T) => boolean): Page {
	const offset = (request.page - 1) * request.limit;
	const items: string[] = [];
	const n = sorted.length;
	if (!keep) {
		for (let i = offset; i < offset + request.limit && i < n; i++) {
			items.push(toJson(sorted[request.descending ? n - 1 - i : i]));
		}
		return { items, total: n };
	}
	let total = 0;
	const end = offset + request.limit;
	for (let i = 0; i < n; i++) {
		const item = sorted[request.descending ? n - 1 - i : i];
		if (!keep(item)) continue;
		if (total >= offset && total < end) items.push(toJson(item));
		total++;
	}
	return { items, total };
}

function before(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): boolean {
	// ISO 8601 timestamps of one format compare correctly as strings.
	return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
}

/** Position of `item` in an array sorted by (createdAt, id): where it is, or where it belongs. */
function sortedIndex<T extends { createdAt: string; id: string }>(sorted: readonly T[], item: T): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (before(sorted[mid], item)) low = mid + 1;
		else high = mid;
	}
	return low;
}

/** Appends `item`, or inserts it where (createdAt, id) puts it when it shares a createdAt. */
function insertSorted<T extends { createdAt: string; id: string }>(sorted: T[], item: T): void {
	const last = sorted[sorted.length - 1];
	if (!last || before(last, item)) sorted.push(item);
	else sorted.splice(sortedIndex(sorted, item), 0, item);
}

export class Store {
	leads: Lead[] = [];
	routines: Routine[] = [];
	prospections: Prospection[] = [];
	customFields: CustomField[] = [];
	threads: ConversationThread[] = [];
	webhooks = new Map<string, WebhookWithSecret>();

	private leadById = new Map<string, Lead>();
	private routineById = new Map<string, Routine>();
	private prospectionById = new Map<string, Prospection>();
	/** Prospections of each status, sorted like `prospections`, so status lists (conversion rate) need no scan. */
	private prospectionsByStatus = new Map<ProspectionStatus, Prospection[]>();
	private leadJson = new Map<string, string>();
	private prospectionJson = new Map<string, string>();
	private activities = new Map<string, Activity[]>();
	private seeded = new Set<string>();
	private random!: SeededRandom;
	private counters = { lead: 0, prospection: 0, webhook: 0 };
	private distribution = 0;

	constructor(
		private readonly seed: number,
		private readonly sizes: DatasetSizes = {},
		/** The service's clock (ms): it stamps every record it creates or changes. */
		private readonly now: () => number = Date.now,
	) {
		this.reset();
	}

	/** Back to the seeded dataset (webhooks removed). */
	reset(): void {
		const data = generateDataset(this.seed, this.sizes);
		this.leads = data.leads;
		this.routines = data.routines;
		this.prospections = data.prospections;
		this.customFields = data.customFields;
		this.threads = data.threads;
		this.webhooks = new Map();
		this.leadById = new Map(this.leads.map((l) => [l.id, l]));
		this.routineById = new Map(this.routines.map((r) => [r.id, r]));
		this.prospectionById = new Map(this.prospections.map((p) => [p.id, p]));
		this.seeded = new Set(this.prospections.map((p) => p.id));
		this.prospectionsByStatus = new Map(PROSPECTION_STATUSES.map((status) => [status, []]));
		for (const p of this.prospections) this.prospectionsByStatus.get(p.status)!.push(p);
		this.leadJson = new Map();
		this.prospectionJson = new Map();
		this.searchTexts = [];
		this.fixedCreatedAt = undefined;
		this.searchCache = new Map();
		this.activities = new Map();
		// A separate stream for records created later, so ids stay deterministic per seed.
		this.random = new SeededRandom(this.seed ^ 0x5eed);
		this.counters = { lead: this.leads.length, prospection: this.prospections.length, webhook: 0 };
		this.distribution = 0;
	}

	leadToJson = (lead: Lead): string => {
		let json = this.leadJson.get(lead.id);
		if (json === undefined) {
			json = JSON.stringify(lead);
			this.leadJson.set(lead.id, json);
		}
		return json;
	};

	prospectionToJson = (prospection: Prospection): string => {
		let json = this.prospectionJson.get(prospection.id);
		if (json === undefined) {
			json = JSON.stringify(prospection);
			this.prospectionJson.set(prospection.id, json);
		}
		return json;
	};

	/** Prospections of one status, sorted by (createdAt, id) ascending. */
	prospectionsWithStatus(status: ProspectionStatus): readonly Prospection[] {
		return this.prospectionsByStatus.get(status) ?? [];
	}

	getLead(id: string): Lead | undefined {
		return this.leadById.get(id);
	}

	getRoutine(id: string): Routine | undefined {
		return this.routineById.get(id);
	}

	getProspection(id: string): Prospection | undefined {
		return this.prospectionById.get(id);
	}

	/** Folded search text of each lead, aligned with `leads` (built on the first search, then kept up to date). */
	private searchTexts: string[] = [];
	private searchCache = new Map<string, Lead[]>();

	private searchTextOf(lead: Lead): string {
		const phones = [...lead.phones, ...lead.mobiles].map((c) => c.value);
		// Phone digits are appended so '11999998888' finds '+55 11 99999-8888'.
		return fold(
			[lead.name, lead.company, ...lead.emails.map((c) => c.value), ...phones, ...phones.map((p) => p.replace(/\D/g, ''))].join('\n'),
		);
	}

	/**
	 * Leads whose name, company, e-mail or phone contains `search` (accents and case ignored; a phone written with
	 * any punctuation matches by its digits), in the list's ascending order.
	 */
	searchLeads(search: string): Lead[] {
		const term = fold(search.trim());
		// A walk asks for the same search page after page: recent results are kept until a lead is created.
		const cached = this.searchCache.get(term);
		if (cached) return cached;
		const found = this.scanLeads(term);
		if (this.searchCache.size >= 32) this.searchCache.delete(this.searchCache.keys().next().value as string);
		this.searchCache.set(term, found);
		return found;
	}

	private scanLeads(term: string): Lead[] {
		const digits = /^[\d\s()+\-.]+$/.test(term) ? term.replace(/\D/g, '') : '';
		const texts = this.searchTexts;
		for (let i = texts.length; i < this.leads.length; i++) texts.push(this.searchTextOf(this.leads[i]));
		const found: Lead[] = [];
		for (let i = 0; i < texts.length; i++) {
			const text = texts[i];
			if (text.includes(term) || (digits.length > 0 && text.includes(digits))) found.push(this.leads[i]);
		}
		return found;
	}

	/** When set, new leads and prospections get exactly this createdAt (records sharing a timestamp). */
	fixedCreatedAt: string | undefined;

	private nextTimestamp(sorted: ReadonlyArray<{ createdAt: string }>): string {
		if (this.fixedCreatedAt !== undefined) return this.fixedCreatedAt;
		const last = sorted.length ? Date.parse(sorted[sorted.length - 1].createdAt) : 0;
		return new Date(Math.max(this.now(), last + 1)).toISOString();
	}

	createLead(input: NewLead): Lead {
		const lead: Lead = {
			id: makeId('lead', ++this.counters.lead, this.random),
			name: input.name,
			company: input.company,
			emails: input.emails,
			phones: input.phones,
			mobiles: input.mobiles,
			origin: API_LEAD_ORIGIN,
			status: 'OPEN',
			sourceId: API_SOURCE_ID,
			createdById: API_USER_ID,
			routineIds: [],
			createdAt: this.nextTimestamp(this.leads),
		};
		insertSorted(this.leads, lead);
		this.leadById.set(lead.id, lead);
		this.searchCache.clear();
		// Search texts are aligned with `leads`: rebuilt when a lead is not appended at the end.
		if (this.leads[this.leads.length - 1] !== lead) this.searchTexts = [];
		return lead;
	}

	/**
	 * Adds a lead to a routine. A prospection is started (IN_PROGRESS) when a responsible is given or the routine
	 * distributes automatically, unless the lead already has an open (IN_PROGRESS or FROZEN) one in that routine.
	 */
	addLeadToRoutine(routineId: string, leadId: string, responsibleId?: string) {
		const routine = this.routineById.get(routineId);
		if (!routine) throw notFound('Rotina');
		const lead = this.leadById.get(leadId);
		if (!lead) throw notFound('Lead');
		const alreadyInRoutine = lead.routineIds.includes(routine.id);
		if (!alreadyInRoutine) {
			lead.routineIds = [...lead.routineIds, routine.id];
			this.leadJson.delete(lead.id);
		}
		let prospection: Prospection | null = null;
		let prospectionStarted = false;
		if (responsibleId || routine.automaticDistribution) {
			const open = this.prospections.find(
				(p) => p.leadId === lead.id && p.routineId === routine.id && (p.status === 'IN_PROGRESS' || p.status === 'FROZEN'),
			);
			if (open) prospection = open;
			else {
				const createdAt = this.nextTimestamp(this.prospections);
				prospection = {
					id: makeId('pro', ++this.counters.prospection, this.random),
					status: 'IN_PROGRESS',
					leadId: lead.id,
					routineId: routine.id,
					responsibleId: responsibleId ?? USER_IDS[this.distribution++ % USER_IDS.length],
					createdAt,
					updatedAt: createdAt,
				};
				insertSorted(this.prospections, prospection);
				this.prospectionById.set(prospection.id, prospection);
				insertSorted(this.prospectionsByStatus.get('IN_PROGRESS')!, prospection);
				prospectionStarted = true;
			}
		}
		return {
			routineId: routine.id,
			leadId: lead.id,
			responsibleId: prospection ? prospection.responsibleId : (responsibleId ?? null),
			alreadyInRoutine,
			prospectionStarted,
			prospection,
		};
	}

	setProspectionStatus(id: string, status: ProspectionStatus): { prospection: Prospection; changed: boolean } {
		const prospection = this.prospectionById.get(id);
		if (!prospection) throw notFound('Prospecção');
		const changed = prospection.status !== status;
		if (changed) {
			const from = this.prospectionsByStatus.get(prospection.status)!;
			from.splice(sortedIndex(from, prospection), 1);
			const to = this.prospectionsByStatus.get(status)!;
			to.splice(sortedIndex(to, prospection), 0, prospection);
			prospection.status = status;
			prospection.updatedAt = new Date(this.now()).toISOString();
			this.prospectionJson.delete(prospection.id);
		}
		return { prospection, changed };
	}

	activitiesOf(prospection: Prospection): Activity[] {
		let list = this.activities.get(prospection.id);
		if (!list) {
			const count = this.sizes.activitiesPerProspection ?? DEFAULT_DATASET.activitiesPerProspection;
			// Prospections started through the API have no activities yet.
			list = this.seeded.has(prospection.id) ? generateActivities(this.seed, prospection, count) : [];
			this.activities.set(prospection.id, list);
		}
		return list;
	}

	createWebhook(input: { name: string; url: string; events: string[] }): WebhookWithSecret {
		const webhook: WebhookWithSecret = {
			id: makeId('wh', ++this.counters.webhook, this.random),
			name: input.name,
			url: input.url,
			events: input.events,
			createdAt: new Date(this.now()).toISOString(),
			secret: randomBytes(32).toString('hex'),
		};
		this.webhooks.set(webhook.id, webhook);
		return webhook;
	}

	deleteWebhook(id: string): void {
		if (!this.webhooks.delete(id)) throw notFound('Webhook');
	}
}

/** A webhook as the API shows it after creation: without its secret. */
export function publicWebhook(webhook: WebhookWithSecret) {
	return { id: webhook.id, name: webhook.name, url: webhook.url, events: webhook.events, createdAt: webhook.createdAt };
}
