/** The /api/v1 endpoints of the spec, answering with its shapes. */
import { PROSPECTION_STATUSES, THREAD_CHANNELS } from './dataset';
import { ApiError, MESSAGES, notFound, type FieldError } from './errors';
import { enumFilter, listParams, multiValue, singleValue, type ListParams, type Query } from './query';
import { pageOf, publicWebhook, type Page, type Store } from './store';
import type { Lead, Prospection, ProspectionStatus, Routine } from './types';
import { validateAddLead, validateNewLead, validateNewWebhook } from './validation';

export interface ApiResponse {
	status: number;
	body: string;
}

export interface ApiRequest {
	method: string;
	/** Path below /api/v1, without trailing slash, e.g. /leads. */
	route: string;
	query: Query;
	/** Parsed JSON body; `undefined` when none was sent. */
	body: () => unknown;
}

function json(status: number, value: unknown): ApiResponse {
	return { status, body: JSON.stringify(value) };
}

function list(page: Page, params: ListParams): ApiResponse {
	const meta = {
		limit: params.limit,
		count: page.items.length,
		total: page.total,
		page: params.page,
		// An empty list still has one (empty) page, so "page equals totalPages" ends every walk.
		totalPages: Math.max(1, Math.ceil(page.total / params.limit)),
	};
	return { status: 200, body: `{"data":[${page.items.join(',')}],"meta":${JSON.stringify(meta)}}` };
}

const stringify = (item: unknown) => JSON.stringify(item);

function anyOf(values: string[] | undefined): Set<string> | undefined {
	return values ? new Set(values) : undefined;
}

function listLeads(store: Store, query: Query): ApiResponse {
	const params = listParams(query, ['createdAt']);
	const search = singleValue(query, 'search')?.trim();
	// Lead status values are not published; values are matched as given (case-insensitive).
	const statuses = multiValue(query, 'status')?.map((s) => s.toUpperCase());
	const sourceIds = anyOf(multiValue(query, 'sourceIds'));
	const routineIds = anyOf(multiValue(query, 'routineIds'));
	const createdByIds = anyOf(multiValue(query, 'createdByIds'));
	const source = search ? store.searchLeads(search) : store.leads;
	const keep =
		statuses || sourceIds || routineIds || createdByIds
			? (lead: Lead) =>
					(!statuses || statuses.includes(lead.status)) &&
					(!sourceIds || sourceIds.has(lead.sourceId)) &&
					(!createdByIds || createdByIds.has(lead.createdById)) &&
					(!routineIds || lead.routineIds.some((id) => routineIds.has(id)))
			: undefined;
	return list(pageOf(source, params, store.leadToJson, keep), params);
}

function listRoutines(store: Store, query: Query): ApiResponse {
	const params = listParams(query, ['createdAt', 'name']);
	const statuses = multiValue(query, 'status')?.map((s) => s.toUpperCase());
	const priorities = multiValue(query, 'priorities')?.map((s) => s.toUpperCase());
	const types = multiValue(query, 'acquisitionTypes')?.map((s) => s.toUpperCase());
	let sorted: Routine[] = store.routines;
	if (params.orderBy === 'name') {
		sorted = [...sorted].sort((a, b) => a.name.localeCompare(b.name, 'pt-BR') || (a.id < b.id ? -1 : 1));
	}
	const keep =
		statuses || priorities || types
			? (routine: Routine) =>
					(!statuses || statuses.includes(routine.status)) &&
					(!priorities || priorities.includes(routine.priority)) &&
					(!types || types.includes(routine.acquisitionType))
			: undefined;
	return list(pageOf(sorted, params, stringify, keep), params);
}

function listProspections(store: Store, query: Query): ApiResponse {
	const errors: FieldError[] = [];
	const statuses = enumFilter(query, 'status', PROSPECTION_STATUSES, errors);
	const params = listParams(query, ['createdAt'], errors);
	const routineIds = anyOf(multiValue(query, 'routineIds'));
	const leadId = singleValue(query, 'leadId')?.trim() || undefined;
	// One status reads its own index; several statuses scan the whole list.
	const single = statuses && statuses.size === 1 ? ([...statuses][0] as ProspectionStatus) : undefined;
	const source = single ? store.prospectionsWithStatus(single) : store.prospections;
	const byStatus = statuses && !single ? statuses : undefined;
	const keep =
		byStatus || routineIds || leadId
			? (p: Prospection) =>
					(!byStatus || byStatus.has(p.status)) &&
					(!routineIds || routineIds.has(p.routineId)) &&
					(!leadId || p.leadId === leadId)
			: undefined;
	return list(pageOf(source, params, store.prospectionToJson, keep), params);
}

function listThreads(store: Store, query: Query): ApiResponse {
	const errors: FieldError[] = [];
	// The parameter's name is not published: `channel` and `channels` are both read.
	const channel = enumFilter(query, 'channel', THREAD_CHANNELS, errors);
	const channels = enumFilter(query, 'channels', THREAD_CHANNELS, errors);
	const params = listParams(query, ['createdAt'], errors);
	const wanted = channel || channels ? new Set([...(channel ?? []), ...(channels ?? [])]) : undefined;
	const leadId = singleValue(query, 'leadId')?.trim() || undefined;
	const keep =
		wanted || leadId
			? (t: { channel: string; leadId: string }) => (!wanted || wanted.has(t.channel)) && (!leadId || t.leadId === leadId)
			: undefined;
	return list(pageOf(store.threads, params, stringify, keep), params);
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** Routes one authenticated /api/v1 request; throws ApiError for error answers. */
export function handleApi(store: Store, request: ApiRequest): ApiResponse {
	const { method, route, query } = request;
	const read = method === 'GET' || method === 'HEAD';
	const parts = route.split('/').filter(Boolean).map(safeDecode);

	if (parts.length === 1) {
		switch (parts[0]) {
			case 'custom-fields':
				if (read) {
					const params = listParams(query, ['createdAt']);
					return list(pageOf(store.customFields, params, stringify), params);
				}
				break;
			case 'leads':
				if (read) return listLeads(store, query);
				if (method === 'POST') return json(201, store.createLead(validateNewLead(request.body())));
				break;
			case 'routines':
				if (read) return listRoutines(store, query);
				break;
			case 'prospections':
				if (read) return listProspections(store, query);
				break;
			case 'webhooks':
				if (read) return json(200, { data: [...store.webhooks.values()].map(publicWebhook) });
				if (method === 'POST') return json(201, store.createWebhook(validateNewWebhook(request.body())));
				break;
		}
	} else if (parts.length === 2) {
		if (parts[0] === 'conversations' && parts[1] === 'threads' && read) return listThreads(store, query);
		if (parts[0] === 'webhooks' && method === 'DELETE') {
			store.deleteWebhook(parts[1]);
			return json(200, { id: parts[1], deleted: true });
		}
	} else if (parts.length === 3) {
		if (parts[0] === 'routines' && parts[2] === 'lead' && method === 'POST') {
			if (!store.getRoutine(parts[1])) throw notFound('Rotina');
			const input = validateAddLead(request.body());
			return json(200, store.addLeadToRoutine(parts[1], input.leadId, input.responsibleId));
		}
		if (parts[0] === 'prospections' && parts[2] === 'activities' && read) {
			const prospection = store.getProspection(parts[1]);
			if (!prospection) throw notFound('Prospecção');
			const params = listParams(query, ['createdAt']);
			return list(pageOf(store.activitiesOf(prospection), params, stringify), params);
		}
	}
	throw new ApiError(404, MESSAGES.unknownRoute(method, `/api/v1${route}`));
}
