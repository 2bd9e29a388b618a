/**
 * Every suite reaches loopback only. Tests name link-local and cloud-metadata hosts on purpose (the node must refuse
 * them before sending), and the sandbox delivers webhooks to whatever URL a test registers: should a rule break (or a
 * mutant break it), the connection must fail here, in this process, rather than leave the machine. A host name other
 * than localhost fails as unresolved (no DNS query is made), an address off loopback as unreachable: the same errors
 * the node would see on a machine without a network.
 */
import net from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

function isLoopback(host: string): boolean {
	const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
	if (LOOPBACK_NAMES.has(bare) || bare === '::1') return true;
	// An IPv4 address written inside IPv6 (::ffff:127.0.0.1, which Node writes as ::ffff:7f00:1).
	const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(bare);
	if (mapped) return parseInt(mapped[1], 16) >> 8 === 127;
	const v4 = bare.replace(/^::ffff:/, '');
	return net.isIPv4(v4) && v4.startsWith('127.');
}

type Connect = (this: net.Socket, ...args: unknown[]) => net.Socket;
const original = net.Socket.prototype.connect as unknown as Connect;

function destination(args: unknown[]): { host?: string; path?: string | null } {
	const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
	if (first !== null && typeof first === 'object') return first as { host?: string; path?: string | null };
	if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
	return { host: typeof args[1] === 'string' ? args[1] : 'localhost' };
}

(net.Socket.prototype as unknown as { connect: Connect }).connect = function (this: net.Socket, ...args: unknown[]) {
	const { host = 'localhost', path } = destination(args);
	// Node itself takes a non-empty path as a local socket (http passes path: null for TCP).
	if ((typeof path === 'string' && path !== '') || isLoopback(host)) return original.apply(this, args);
	const name = !net.isIP(host.replace(/^\[|\]$/g, ''));
	const code = name ? 'ENOTFOUND' : 'ENETUNREACH';
	const error = Object.assign(new Error(`${name ? 'getaddrinfo' : 'connect'} ${code} ${host} (tests reach loopback only)`), {
		code,
		hostname: host,
	});
	process.nextTick(() => this.destroy(error));
	return this;
};
