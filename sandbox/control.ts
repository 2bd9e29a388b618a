/** The control handle (in process) and the same operations over HTTP under /__sandbox/ (no key needed). */
import { PROSPECTION_STATUSES } from './dataset';
import { faultProblem } from './faults';
import type { SandboxState } from './state';
import type { Fault, ProspectionStatus, RateLimitSettings, SandboxControl, WebhookWithSecret } from './types';

/** Error of a control operation, with the HTTP status the control API answers. */
export class ControlError extends Error {
	constructor(
		public readonly status: number,
		message: string,
	) {
		super(message);
	}
}

function eventData(state: SandboxState, prospectionId: string) {
	const prospection = state.store.getProspection(prospectionId);
	if (!prospection) return {};
	const lead = state.store.getLead(prospection.leadId);
	return {
		prospection: JSON.parse(JSON.stringify(prospection)),
		lead: lead ? JSON.parse(JSON.stringify(lead)) : null,
	};
}

function subscribers(state: SandboxState, event: string): WebhookWithSecret[] {
	return [...state.store.webhooks.values()].filter((w) => w.events.includes(event));
}

export function makeControl(state: SandboxState): SandboxControl {
	return {
		reset() {
			state.store.reset();
			state.deliverer.clear();
			state.requests.length = 0;
			state.arrivals = 0;
			state.faults.clear();
			state.plan = undefined;
			state.limiter.clear();
		},
		setCreatedAt(createdAt: string | null) {
			if (createdAt !== null && !Number.isFinite(Date.parse(createdAt))) {
				throw new ControlError(400, `createdAt inválido: ${String(createdAt)}.`);
			}
			state.store.fixedCreatedAt = createdAt ?? undefined;
		},
		async setProspectionStatus(id: string, status: ProspectionStatus) {
			if (!PROSPECTION_STATUSES.includes(status)) {
				throw new ControlError(400, `Status inválido: ${String(status)}. Use: ${PROSPECTION_STATUSES.join(', ')}.`);
			}
			let result;
			try {
				result = state.store.setProspectionStatus(id, status);
			} catch {
				throw new ControlError(404, `Prospecção não encontrada: ${id}.`);
			}
			// Only a change into a decided state raises an event.
			if (result.changed && (status === 'WON' || status === 'LOST')) {
				const event = status === 'WON' ? 'prospection.won' : 'prospection.lost';
				state.deliverer.dispatch(subscribers(state, event), event, eventData(state, id), false);
			}
		},
		async sendTestEvent(webhookId: string, event?: string) {
			const webhook = state.store.webhooks.get(webhookId);
			if (!webhook) throw new ControlError(404, `Webhook não encontrado: ${webhookId}.`);
			const kind = event ?? webhook.events[0] ?? 'prospection.won';
			const wanted = kind === 'prospection.lost' ? 'LOST' : 'WON';
			const sample =
				state.store.prospections.find((p) => p.status === wanted) ?? state.store.prospections[0];
			const data = sample ? eventData(state, sample.id) : {};
			state.deliverer.dispatch([webhook], kind, data, true);
		},
		deliveries: () => state.deliverer.all(),
		waitForDeliveries: (count: number, timeoutMs?: number) => state.deliverer.waitFor(count, timeoutMs),
		requests: () => state.requests.slice(),
		leads: () => state.store.leads.slice(),
		prospections: () => state.store.prospections.slice(),
		routines: () => state.store.routines.slice(),
		webhooks: () => [...state.store.webhooks.values()].map((w) => ({ ...w })),
		injectFault(fault: Fault) {
			const problem = faultProblem(fault);
			if (problem) throw new ControlError(400, `Falha inválida: ${problem}`);
			state.faults.add(fault);
		},
		clearFaults: () => state.faults.clear(),
		acceptKey(key: string) {
			if (typeof key !== 'string' || key.trim() === '') throw new ControlError(400, 'A chave deve ser um texto não vazio.');
			state.apiKeys.add(key);
		},
		planFaults(plan) {
			state.plan = plan;
		},
		setRateLimit(settings: RateLimitSettings) {
			for (const key of ['windowSeconds', 'readLimit', 'writeLimit'] as const) {
				const value = settings[key];
				if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
					throw new ControlError(400, `${key} deve ser um número maior que 0.`);
				}
			}
			for (const key of ['enabled', 'clockWindows', 'dateHeader'] as const) {
				if (settings[key] !== undefined && typeof settings[key] !== 'boolean') {
					throw new ControlError(400, `${key} deve ser true ou false.`);
				}
			}
			if (settings.resetFormat !== undefined && !['epoch-seconds', 'epoch-ms', 'delta-seconds'].includes(settings.resetFormat)) {
				throw new ControlError(400, "resetFormat deve ser 'epoch-seconds', 'epoch-ms' ou 'delta-seconds'.");
			}
			if (settings.clockOffsetMs !== undefined && !Number.isFinite(settings.clockOffsetMs)) {
				throw new ControlError(400, 'clockOffsetMs deve ser um número.');
			}
			if (settings.rateHeaders !== undefined && !['always', 'on-429'].includes(settings.rateHeaders)) {
				throw new ControlError(400, "rateHeaders deve ser 'always' ou 'on-429'.");
			}
			state.limiter.update(settings);
		},
	};
}

export const CONTROL_ENDPOINTS = [
	'GET    /__sandbox/                           this list',
	'POST   /__sandbox/reset                      back to the seeded dataset; clears webhooks, deliveries, requests, faults, windows',
	'POST   /__sandbox/prospections/:id/status    {"status":"WON"|"LOST"|"IN_PROGRESS"|"FROZEN"} (WON/LOST raise events)',
	'POST   /__sandbox/webhooks/:id/test          {"event"?: "prospection.won"} sends a test event (test: true)',
	'GET    /__sandbox/deliveries                 deliveries with every attempt',
	'GET    /__sandbox/deliveries/wait?count=N&timeoutMs=T   waits until N deliveries settled',
	'GET    /__sandbox/requests                   requests received (apiKey shown as ***)',
	'DELETE /__sandbox/requests                   forgets recorded requests',
	'GET    /__sandbox/faults                     pending faults',
	'POST   /__sandbox/faults                     a fault object or an array of them',
	'DELETE /__sandbox/faults                     clears faults',
	'GET    /__sandbox/rate-limit                 current limiter settings',
	'POST   /__sandbox/rate-limit                 {"windowSeconds"?, "readLimit"?, "writeLimit"?, "enabled"?, "clockOffsetMs"?, "dateHeader"?}',
	'GET    /__sandbox/leads|prospections|routines|webhooks?limit=N   direct views (webhooks include secrets)',
];

export interface ControlResponse {
	status: number;
	body: unknown;
}

function parse(text: string): unknown {
	if (!text.trim()) return {};
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new ControlError(400, `JSON malformado: ${(error as Error).message}`);
	}
}

/** Serves the control operations over HTTP; `path` is below /__sandbox. */
export async function handleControlHttp(
	state: SandboxState,
	control: SandboxControl,
	method: string,
	path: string,
	search: string,
	text: string,
): Promise<ControlResponse> {
	const parts = path.split('/').filter(Boolean).map((p) => {
		try {
			return decodeURIComponent(p);
		} catch {
			return p;
		}
	});
	const query = new URLSearchParams(search);
	const limit = Number(query.get('limit') ?? '0');
	const view = <T>(items: T[]) => ({ data: limit > 0 ? items.slice(0, limit) : items, total: items.length });
	try {
		const [first, second, third] = parts;
		if (parts.length === 0 && method === 'GET') return { status: 200, body: { endpoints: CONTROL_ENDPOINTS } };
		if (first === 'reset' && method === 'POST' && parts.length === 1) {
			control.reset();
			return { status: 200, body: { ok: true } };
		}
		if (first === 'prospections' && third === 'status' && method === 'POST' && parts.length === 3) {
			const body = parse(text) as { status?: ProspectionStatus };
			await control.setProspectionStatus(second, body.status as ProspectionStatus);
			return { status: 200, body: { ok: true, prospection: state.store.getProspection(second) } };
		}
		if (first === 'webhooks' && third === 'test' && method === 'POST' && parts.length === 3) {
			const body = parse(text) as { event?: unknown };
			if (body.event !== undefined && typeof body.event !== 'string') throw new ControlError(400, 'event deve ser um texto.');
			await control.sendTestEvent(second, body.event as string | undefined);
			return { status: 200, body: { ok: true } };
		}
		if (first === 'deliveries' && method === 'GET') {
			if (parts.length === 1) return { status: 200, body: { data: control.deliveries() } };
			if (second === 'wait' && parts.length === 2) {
				const count = Number(query.get('count') ?? '1');
				const timeoutMs = Math.min(Number(query.get('timeoutMs') ?? '10000'), 120_000);
				try {
					return { status: 200, body: { data: await control.waitForDeliveries(count, timeoutMs) } };
				} catch (error) {
					return { status: 408, body: { message: (error as Error).message, data: control.deliveries() } };
				}
			}
		}
		if (first === 'requests' && parts.length === 1) {
			if (method === 'GET') return { status: 200, body: view(control.requests()) };
			if (method === 'DELETE') {
				state.requests.length = 0;
				return { status: 200, body: { ok: true } };
			}
		}
		if (first === 'faults' && parts.length === 1) {
			if (method === 'GET') return { status: 200, body: { data: state.faults.list() } };
			if (method === 'DELETE') {
				control.clearFaults();
				return { status: 200, body: { ok: true } };
			}
			if (method === 'POST') {
				const body = parse(text);
				const faults = Array.isArray(body) ? body : [body];
				for (const fault of faults) {
					const problem = faultProblem(fault);
					if (problem) throw new ControlError(400, `Falha inválida: ${problem}`);
				}
				for (const fault of faults) control.injectFault(fault as Fault);
				return { status: 200, body: { ok: true, data: state.faults.list() } };
			}
		}
		if (first === 'rate-limit' && parts.length === 1) {
			if (method === 'POST') control.setRateLimit(parse(text) as RateLimitSettings);
			if (method === 'POST' || method === 'GET') return { status: 200, body: { ...state.limiter.config } };
		}
		if (parts.length === 1 && method === 'GET') {
			if (first === 'leads') return { status: 200, body: view(control.leads()) };
			if (first === 'prospections') return { status: 200, body: view(control.prospections()) };
			if (first === 'routines') return { status: 200, body: view(control.routines()) };
			if (first === 'webhooks') return { status: 200, body: view(control.webhooks()) };
		}
		return { status: 404, body: { message: `Operação de controle desconhecida: ${method} /__sandbox${path}`, endpoints: CONTROL_ENDPOINTS } };
	} catch (error) {
		if (error instanceof ControlError) return { status: error.status, body: { message: error.message } };
		return { status: 500, body: { message: (error as Error).message } };
	}
}
