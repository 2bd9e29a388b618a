/**
 * The network between the nodes under test and the sandbox, both in this process, as a fault schedule sees it: which
 * caller (an execution of the schedule) sent each request and its place among that caller's requests, a refused
 * connection for a chosen request, and a count of what moves on the wire (for the schedule's clock).
 *
 * Read from Node's own HTTP diagnostics channels: nothing in the node or in n8n's request helpers is replaced. A
 * refused request is destroyed as it starts, before a byte is written, so the service never sees it (as when nothing
 * listens on the port) and the caller gets ECONNREFUSED.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';

/** One request as its caller sent it: which caller, its place among that caller's requests (0 first). */
export interface CallerRequest {
	caller: string;
	index: number;
	/** Whether it writes (POST, PUT, PATCH, DELETE) or reads, and its place among that caller's writes or reads. */
	kind: 'write' | 'read';
	nth: number;
	/** When the caller sent it (this process's clock), however long it took to arrive. */
	sentAt: number;
	method: string;
	/** Path without the query (which holds the key). */
	path: string;
}

const callers = new AsyncLocalStorage<{ name: string; sent: number; writes: number; reads: number }>();
const byPort = new Map<number, CallerRequest>();
let refuses: ((request: CallerRequest) => boolean) | undefined;
let moves = 0;

function refusedConnection(): Error {
	return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
}

function onRequestStart({ request }: { request: ClientRequest }): void {
	moves += 1;
	const caller = callers.getStore();
	if (!caller) return;
	const kind = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method) ? 'write' : 'read';
	const call: CallerRequest = {
		caller: caller.name,
		index: caller.sent++,
		kind,
		nth: kind === 'write' ? caller.writes++ : caller.reads++,
		sentAt: Date.now(),
		method: request.method,
		path: request.path.split('?')[0],
	};
	if (refuses?.(call)) {
		request.destroy(refusedConnection());
		return;
	}
	const note = (socket: Socket) => {
		const known = () => byPort.set(socket.localPort as number, call);
		if (socket.localPort) known();
		else socket.once('connect', known);
	};
	if (request.socket) note(request.socket);
	else request.once('socket', note);
}

const onMove = (): void => {
	moves += 1;
};

let installed = false;

/** Listens on Node's HTTP channels; once per process. */
function install(): void {
	if (installed) return;
	installed = true;
	diagnostics.subscribe('http.client.request.start', onRequestStart as (message: unknown) => void);
	diagnostics.subscribe('http.client.response.finish', onMove);
	diagnostics.subscribe('http.server.request.start', onMove);
	diagnostics.subscribe('http.server.response.finish', onMove);
}

/** Runs `task` as the caller `name`: every request it sends, however deep in n8n, is counted as that caller's. */
export async function asCaller<T>(name: string, task: () => Promise<T>): Promise<T> {
	install();
	return await callers.run({ name, sent: 0, writes: 0, reads: 0 }, task);
}

/** The caller's request that arrived from this port (the sandbox's record names the port). */
export function requestFromPort(port: number | undefined): CallerRequest | undefined {
	return port === undefined ? undefined : byPort.get(port);
}

/** Refuses the connection of every request `refuse` chooses, until called again (undefined: none). */
export function refuseConnections(refuse: ((request: CallerRequest) => boolean) | undefined): void {
	install();
	refuses = refuse;
}

/** Grows whenever a request or an answer starts or ends on either side: the clock moves on fast only while it stays. */
export function networkMoves(): number {
	install();
	return moves;
}

/** Forgets the ports seen, between schedules. */
export function forgetPorts(): void {
	byPort.clear();
}
