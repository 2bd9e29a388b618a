/** Deterministic seeded dataset: the same seed and sizes always produce the same records. */
import { makeId, SeededRandom } from './random';
import type {
	Activity,
	ContactItem,
	ConversationThread,
	CustomField,
	DatasetSizes,
	Lead,
	Prospection,
	ProspectionStatus,
	Routine,
} from './types';

export const DEFAULT_DATASET: Required<DatasetSizes> = {
	leads: 250,
	routines: 8,
	prospections: 150,
	activitiesPerProspection: 4,
	customFields: 6,
	threads: 40,
};

/** Origin label the app shows for leads created through the API. */
export const API_LEAD_ORIGIN = 'Levantada de Mão';
export const API_SOURCE_ID = 'src_api';
export const API_USER_ID = 'usr_api';

export const SOURCES = [
	{ id: 'src_import', origin: 'Importação' },
	{ id: 'src_manual', origin: 'Cadastro manual' },
	{ id: 'src_integration', origin: 'Integração' },
	{ id: 'src_form', origin: 'Formulário do site' },
];
export const USER_IDS = ['usr_ana', 'usr_bruno', 'usr_carla', 'usr_diego', 'usr_elisa', 'usr_fabio'];
export const LEAD_STATUSES = ['OPEN', 'QUALIFIED', 'DISQUALIFIED'];
export const ROUTINE_STATUSES = ['ACTIVE', 'PAUSED', 'ARCHIVED'];
export const ROUTINE_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH'];
export const ROUTINE_ACQUISITION_TYPES = ['INBOUND', 'OUTBOUND', 'REFERRAL'];
export const PROSPECTION_STATUSES: readonly ProspectionStatus[] = ['IN_PROGRESS', 'FROZEN', 'WON', 'LOST'];
export const THREAD_CHANNELS = ['WHATSAPP', 'EMAIL'] as const;

// Seeded records end here, so every record created later through the API is newer.
const DATASET_END_MS = Date.parse('2025-12-31T00:00:00.000Z');
const TWO_YEARS_MS = 2 * 365 * 24 * 3600 * 1000;

const FIRST_NAMES = ['Ana', 'Bruno', 'Carla', 'Daniel', 'Eduarda', 'Felipe', 'Gabriela', 'Henrique', 'Isabela', 'João',
	'Larissa', 'Marcos', 'Natália', 'Otávio', 'Paula', 'Rafael', 'Sofia', 'Thiago', 'Vanessa', 'Wagner'];
const LAST_NAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima',
	'Gomes', 'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes'];
const COMPANY_WORDS = ['Alfa', 'Horizonte', 'Vértice', 'Aurora', 'Atlântico', 'Cerrado', 'Ipê', 'Pampa', 'Serra',
	'Litoral', 'Prisma', 'Nexo'];
const COMPANY_KINDS = ['Tecnologia', 'Logística', 'Alimentos', 'Consultoria', 'Engenharia', 'Saúde', 'Varejo',
	'Educação'];
const DOMAINS = ['example.com', 'example.com.br', 'example.org'];
const ROUTINE_NAMES = ['Inbound quente', 'Outbound enterprise', 'Reativação', 'Indicações', 'Pós-evento',
	'Trial expirado', 'Upsell', 'Follow-up de proposta'];
const CUSTOM_FIELD_DEFS: Array<Pick<CustomField, 'name' | 'key' | 'type' | 'options'>> = [
	{ name: 'Segmento', key: 'segmento', type: 'SELECT', options: ['Indústria', 'Serviços', 'Varejo'] },
	{ name: 'Número de funcionários', key: 'numero_funcionarios', type: 'NUMBER', options: [] },
	{ name: 'Data da última compra', key: 'data_ultima_compra', type: 'DATE', options: [] },
	{ name: 'Cargo', key: 'cargo', type: 'TEXT', options: [] },
	{ name: 'Orçamento anual', key: 'orcamento_anual', type: 'NUMBER', options: [] },
	{ name: 'Canal preferido', key: 'canal_preferido', type: 'SELECT', options: ['WhatsApp', 'E-mail', 'Telefone'] },
];

export interface Dataset {
	leads: Lead[];
	routines: Routine[];
	prospections: Prospection[];
	customFields: CustomField[];
	threads: ConversationThread[];
}

const slugs = new Map<string, string>();
/** Lower-case, accent-free form of a name (memoised: the name lists are small). */
function slug(text: string): string {
	let value = slugs.get(text);
	if (value === undefined) {
		value = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
		slugs.set(text, value);
	}
	return value;
}

function phoneNumber(random: SeededRandom, mobile: boolean): string {
	const area = random.int(11, 99);
	const head = mobile ? `9${random.int(1000, 9999)}` : `${random.int(2000, 5999)}`;
	return `+55 ${area} ${head}-${random.int(1000, 9999)}`;
}

/** Strictly increasing timestamps ending before DATASET_END_MS, so arrays are born sorted by createdAt. */
function timeline(random: SeededRandom, count: number): number[] {
	const gap = Math.max(60_000, Math.floor(TWO_YEARS_MS / Math.max(count, 1)));
	let at = DATASET_END_MS - gap * count;
	const times = new Array<number>(count);
	for (let i = 0; i < count; i++) {
		at += 1000 + Math.floor(random.next() * (gap - 1000));
		times[i] = at;
	}
	return times;
}

export function generateDataset(seed: number, sizes: DatasetSizes = {}): Dataset {
	const size = { ...DEFAULT_DATASET, ...sizes };
	const random = new SeededRandom(seed);

	const routines: Routine[] = [];
	const routineTimes = timeline(random, size.routines);
	for (let i = 0; i < size.routines; i++) {
		const baseName = ROUTINE_NAMES[i % ROUTINE_NAMES.length];
		routines.push({
			id: makeId('rot', i + 1, random),
			name: i < ROUTINE_NAMES.length ? baseName : `${baseName} ${Math.floor(i / ROUTINE_NAMES.length) + 1}`,
			status: i === 0 ? 'ACTIVE' : ROUTINE_STATUSES[i % ROUTINE_STATUSES.length],
			priority: ROUTINE_PRIORITIES[i % ROUTINE_PRIORITIES.length],
			acquisitionType: ROUTINE_ACQUISITION_TYPES[i % ROUTINE_ACQUISITION_TYPES.length],
			// Every other routine distributes leads automatically (the first one does).
			automaticDistribution: i % 2 === 0,
			createdAt: new Date(routineTimes[i]).toISOString(),
		});
	}

	const leads: Lead[] = new Array(size.leads);
	const leadTimes = timeline(random, size.leads);
	for (let i = 0; i < size.leads; i++) {
		const first = random.pick(FIRST_NAMES);
		const last = random.pick(LAST_NAMES);
		const source = random.pick(SOURCES);
		const emails: ContactItem[] = [];
		const phones: ContactItem[] = [];
		const mobiles: ContactItem[] = [];
		const shape = random.int(0, 7);
		if (shape !== 1) emails.push({ value: `${slug(first)}.${slug(last)}${i + 1}@${random.pick(DOMAINS)}`, label: 'trabalho' });
		if (shape >= 5) emails.push({ value: `${slug(first)}${i + 1}@example.net`, label: 'pessoal' });
		if (shape % 2 === 1) phones.push({ value: phoneNumber(random, false), label: 'comercial' });
		if (shape <= 3) mobiles.push({ value: phoneNumber(random, true), label: shape === 0 ? 'whatsapp' : 'celular' });
		leads[i] = {
			id: makeId('lead', i + 1, random),
			name: `${first} ${last}`,
			company: `${random.pick(COMPANY_WORDS)} ${random.pick(COMPANY_KINDS)}`,
			emails,
			phones,
			mobiles,
			origin: source.origin,
			status: random.pick(LEAD_STATUSES),
			sourceId: source.id,
			createdById: random.pick(USER_IDS),
			routineIds: [],
			createdAt: new Date(leadTimes[i]).toISOString(),
		};
	}

	const prospections: Prospection[] = [];
	const prospectionTimes = timeline(random, size.prospections);
	for (let i = 0; i < size.prospections && leads.length > 0 && routines.length > 0; i++) {
		const lead = leads[random.int(0, leads.length - 1)];
		const routine = routines[random.int(0, routines.length - 1)];
		if (!lead.routineIds.includes(routine.id)) lead.routineIds.push(routine.id);
		const createdAt = new Date(prospectionTimes[i]).toISOString();
		prospections.push({
			id: makeId('pro', i + 1, random),
			// Cycle through the four statuses so each one is always present.
			status: PROSPECTION_STATUSES[i % 4 === 0 ? 0 : random.int(0, 3)],
			leadId: lead.id,
			routineId: routine.id,
			responsibleId: random.pick(USER_IDS),
			createdAt,
			updatedAt: createdAt,
		});
	}
	// Guarantee every status appears at least once when there are four or more prospections.
	for (let s = 0; s < 4 && s < prospections.length; s++) prospections[s].status = PROSPECTION_STATUSES[s];

	const customFields: CustomField[] = [];
	for (let i = 0; i < size.customFields; i++) {
		const def = CUSTOM_FIELD_DEFS[i % CUSTOM_FIELD_DEFS.length];
		const suffix = i < CUSTOM_FIELD_DEFS.length ? '' : `_${Math.floor(i / CUSTOM_FIELD_DEFS.length) + 1}`;
		customFields.push({
			id: makeId('cf', i + 1, random),
			name: suffix ? `${def.name} ${suffix.slice(1)}` : def.name,
			key: def.key + suffix,
			type: def.type,
			entity: 'lead',
			options: [...def.options],
			createdAt: new Date(DATASET_END_MS - (size.customFields - i) * 86_400_000).toISOString(),
		});
	}

	const threads: ConversationThread[] = [];
	const threadTimes = timeline(random, size.threads);
	for (let i = 0; i < size.threads && leads.length > 0; i++) {
		const lead = leads[random.int(0, leads.length - 1)];
		const channel = THREAD_CHANNELS[i % 2];
		const createdAt = new Date(threadTimes[i]).toISOString();
		threads.push({
			id: makeId('thr', i + 1, random),
			channel,
			leadId: lead.id,
			subject: channel === 'EMAIL' ? `Proposta para ${lead.company}` : `Conversa com ${lead.name}`,
			lastMessage: random.pick(['Olá, tudo bem?', 'Podemos agendar uma conversa?', 'Segue a proposta.',
				'Obrigado pelo retorno!']),
			lastMessageAt: new Date(threadTimes[i] + random.int(60_000, 86_400_000)).toISOString(),
			unreadCount: random.int(0, 5),
			createdAt,
		});
	}

	return { leads, routines, prospections, customFields, threads };
}

/** Activities of a seeded prospection, derived from the seed and the prospection id (generated on demand). */
export function generateActivities(seed: number, prospection: Prospection, count: number): Activity[] {
	let hash = seed | 0;
	for (let i = 0; i < prospection.id.length; i++) hash = Math.imul(hash ^ prospection.id.charCodeAt(i), 16777619);
	const random = new SeededRandom(hash);
	const start = Date.parse(prospection.createdAt);
	const activities: Activity[] = [];
	const kinds: Activity['type'][] = ['CALL', 'MESSAGE', 'EMAIL'];
	const descriptions: Record<Activity['type'], string> = {
		CALL: 'Ligação de apresentação',
		MESSAGE: 'Mensagem de acompanhamento',
		EMAIL: 'E-mail com proposta',
	};
	for (let i = 0; i < count; i++) {
		const type = kinds[(i + random.int(0, 2)) % 3];
		activities.push({
			id: makeId('act', i + 1, random),
			prospectionId: prospection.id,
			type,
			description: descriptions[type],
			createdAt: new Date(start + (i + 1) * 3_600_000 + random.int(0, 3_000_000)).toISOString(),
		});
	}
	return activities;
}
