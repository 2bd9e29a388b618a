/** Public types of the sandbox: options, records, deliveries, faults and the control handle. */

export type ProspectionStatus = 'IN_PROGRESS' | 'FROZEN' | 'WON' | 'LOST';
export type ResetFormat = 'epoch-seconds' | 'epoch-ms' | 'delta-seconds';
/** 'always': X-RateLimit-* on every answer; 'on-429': only on 429 answers, as the spec documents them. */
export type RateHeaders = 'always' | 'on-429';

export interface DatasetSizes {
	leads?: number;
	routines?: number;
	prospections?: number;
	activitiesPerProspection?: number;
	customFields?: number;
	threads?: number;
}

export interface SandboxOptions {
	/** 0 (the default from code) picks a free port. */
	port?: number;
	host?: string;
	seed?: number;
	apiKeys?: string[];
	windowSeconds?: number;
	readLimit?: number;
	writeLimit?: number;
	/** false turns the limiter off; the X-RateLimit-* headers are still sent. */
	rateLimit?: boolean;
	rateLimitResetFormat?: ResetFormat;
	/** Windows aligned to the clock instead of opening at a key's first call; false by default. */
	clockWindows?: boolean;
	/** 'always' by default. */
	rateHeaders?: RateHeaders;
	/** The service's clock ahead of the real one (negative: behind), as its Date header, epoch resets and createdAt show it; 0 by default. */
	clockOffsetMs?: number;
	/** Whether answers carry a Date header (true by default); false as a service behind a proxy that strips it. */
	dateHeader?: boolean;
	dataset?: DatasetSizes;
	signatureHeader?: string;
	delivery?: { maxRetries?: number; baseDelayMs?: number; timeoutMs?: number };
	/** Called with one line per request (key masked), e.g. console.log from the CLI. */
	log?: (line: string) => void;
}

export interface ContactItem {
	value: string;
	label: string;
}

export interface Lead {
	id: string;
	name: string;
	company: string;
	emails: ContactItem[];
	phones: ContactItem[];
	mobiles: ContactItem[];
	origin: string;
	status: string;
	sourceId: string;
	createdById: string;
	routineIds: string[];
	createdAt: string;
}

export interface Prospection {
	id: string;
	status: ProspectionStatus;
	leadId: string;
	routineId: string;
	responsibleId: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface Routine {
	id: string;
	name: string;
	status: string;
	priority: string;
	acquisitionType: string;
	automaticDistribution: boolean;
	createdAt: string;
}

export interface Activity {
	id: string;
	prospectionId: string;
	type: 'CALL' | 'MESSAGE' | 'EMAIL';
	description: string;
	createdAt: string;
}

export interface CustomField {
	id: string;
	name: string;
	key: string;
	type: 'TEXT' | 'NUMBER' | 'DATE' | 'SELECT';
	entity: 'lead';
	options: string[];
	createdAt: string;
}

export interface ConversationThread {
	id: string;
	channel: 'WHATSAPP' | 'EMAIL';
	leadId: string;
	subject: string;
	lastMessage: string;
	lastMessageAt: string;
	unreadCount: number;
	createdAt: string;
}

export interface Webhook {
	id: string;
	name: string;
	url: string;
	events: string[];
	createdAt: string;
}

export interface WebhookWithSecret extends Webhook {
	secret: string;
}

export interface DeliveryAttempt {
	at: string;
	/** Envelope `retries` value of this attempt (0 for the first one). */
	retries: number;
	status?: number;
	error?: string;
	body: string;
	signature: string;
}

export interface Delivery {
	id: string;
	/** Envelope id: shared by every webhook that receives the same event. */
	eventId: string;
	webhookId: string;
	url: string;
	event: string;
	test: boolean;
	/** Raw body of the latest attempt. */
	body: string;
	/** Signature of the latest attempt (hex HMAC-SHA256 of `body`). */
	signature: string;
	attempts: DeliveryAttempt[];
	delivered: boolean;
	/** true once delivered or once every retry failed. */
	settled: boolean;
}

export interface RecordedRequest {
	at: string;
	method: string;
	path: string;
	/** Query parameters with apiKey masked as '***'. */
	query: Record<string, string | string[]>;
	/** 0 when the connection was dropped without a response. */
	status: number;
	kind: 'read' | 'write';
	dropped?: boolean;
	/** A write's body as parsed JSON (left out when it was not JSON). */
	body?: unknown;
	/** The caller's port: tells apart the requests of callers in the same process. */
	remotePort?: number;
	/** Its place in the order requests arrived (0 first, counted from the last reset). */
	seq: number;
	/** What the service applied for this request, whatever its caller was answered: set at the commit. */
	applied?: AppliedWrite;
}

/** A write the service applied: when (the service's clock, ISO 8601) and the record it wrote. */
export interface AppliedWrite {
	at: string;
	/** The created lead or webhook, the deleted webhook, or the lead added to a routine. */
	recordId: string;
}

/** What a fault plan sees of a request before deciding its fault. */
export interface PlannedRequest {
	method: string;
	/** Full path, e.g. /api/v1/leads. */
	path: string;
	remotePort?: number;
	/** Its place in the order requests arrived, as its record shows it. */
	seq: number;
}

/**
 * Chooses the fault of each request as it arrives, or none: in process only (tests that draw a fault per request).
 * May wait (a promise) before answering, which holds the request as a slow network would.
 */
export type FaultPlan = (request: PlannedRequest) => Fault | undefined | Promise<Fault | undefined>;

export type Fault =
	| {
			kind: 'status';
			/** Any 5xx (500, 502, 503, 504, 524: a CDN's timeout...) or 4xx but 429 (a proxy or firewall refusing). */
			status: number;
			count: number;
			/** 'after-commit': the service applies the request, then a gateway answers this status. Default before. */
			when?: 'before-commit' | 'after-commit';
			/** The answer's body instead of the Portuguese `{ message }`, e.g. a proxy's HTML error page. */
			body?: string;
			/** Content-Type of `body`; default application/json. */
			contentType?: string;
			methods?: string[];
			pathPrefix?: string;
	  }
	| {
			/** A slow service: the request is applied commitAfterMs after it arrives, answered answerAfterMs after it arrives. */
			kind: 'slow-commit';
			commitAfterMs: number;
			/** Default: commitAfterMs. Never before the commit. */
			answerAfterMs?: number;
			/** A gateway in front answers 504 this long after arrival, before the commit, which still happens. */
			gatewayTimeoutMs?: number;
			count: number;
			methods?: string[];
			pathPrefix?: string;
	  }
	| {
			kind: 'drop';
			when: 'before-commit' | 'after-commit';
			count: number;
			probability?: number;
			methods?: string[];
			pathPrefix?: string;
	  }
	| { kind: 'latency'; ms: number }
	| {
			kind: 'rate-limit';
			count: number;
			retryAfterSeconds?: number;
			/** false: a bare 429, without Retry-After or X-RateLimit-* (a proxy's own limit). Default true. */
			hints?: boolean;
			methods?: string[];
			pathPrefix?: string;
	  }
	| {
			/** A 2xx whose body is not the API's: `body` as JSON, or without it an HTML maintenance page. */
			kind: 'malformed';
			count: number;
			body?: string;
			/** Content-Type of `body`; default application/json (the HTML page is always text/html). */
			contentType?: string;
			/** Default 200. */
			status?: number;
			/** 'after-commit': the request is applied, then answered with this body (a proxy rewriting the answer). Default before. */
			when?: 'before-commit' | 'after-commit';
			methods?: string[];
			pathPrefix?: string;
	  }
	| {
			/** A moved host: answered with a redirect to `location`; nothing is applied. */
			kind: 'redirect';
			status: 301 | 302 | 303 | 307 | 308;
			/** Left out: a redirect without a Location header (a misconfigured proxy). */
			location?: string;
			count: number;
			methods?: string[];
			pathPrefix?: string;
	  };

export interface RateLimitSettings {
	windowSeconds?: number;
	readLimit?: number;
	writeLimit?: number;
	enabled?: boolean;
	clockWindows?: boolean;
	rateHeaders?: RateHeaders;
	resetFormat?: ResetFormat;
	clockOffsetMs?: number;
	dateHeader?: boolean;
}

export interface SandboxControl {
	reset(): void;
	/** New leads and prospections get exactly this createdAt (ties) until called with null. */
	setCreatedAt(createdAt: string | null): void;
	setProspectionStatus(id: string, status: ProspectionStatus): Promise<void>;
	sendTestEvent(webhookId: string, event?: string): Promise<void>;
	deliveries(): Delivery[];
	waitForDeliveries(count: number, timeoutMs?: number): Promise<Delivery[]>;
	requests(): RecordedRequest[];
	leads(): Lead[];
	prospections(): Prospection[];
	routines(): Routine[];
	webhooks(): WebhookWithSecret[];
	injectFault(f: Fault): void;
	clearFaults(): void;
	/** Accepts one more key, as a new account's (the data stays one dataset). */
	acceptKey(key: string): void;
	/** In process only: a plan that chooses each request's fault, before the injected ones; undefined removes it. */
	planFaults(plan: FaultPlan | undefined): void;
	setRateLimit(p: RateLimitSettings): void;
}

export interface RunningSandbox {
	/** http://HOST:PORT, no trailing slash, no /api/v1. */
	url: string;
	/** The first accepted key. */
	apiKey: string;
	stop(): Promise<void>;
	control: SandboxControl;
}
