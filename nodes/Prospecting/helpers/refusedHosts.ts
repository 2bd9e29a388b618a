/**
 * Hosts the Base URL may not name: link-local addresses and the cloud metadata endpoints, which answer with the
 * machine's own secrets (instance credentials, tokens) to anything running on it. An error quoting such an answer
 * would hand them to whoever reads the execution.
 *
 * Only what the URL says literally is checked: node code may import nothing but n8n-workflow and node:crypto, so it
 * cannot resolve a name to see where it leads. A name that resolves to one of these addresses is caught only by
 * n8n's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED), which resolves every request's host.
 */

/** Names of metadata endpoints, lower case, without a trailing dot. */
const METADATA_NAMES = new Set([
	'metadata.google.internal',
	'metadata.goog',
	'metadata',
	'instance-data',
	'instance-data.ec2.internal',
	'metadata.azure.internal',
]);

/** Metadata addresses outside the link-local ranges: Alibaba Cloud, the IPv6 endpoint of AWS, Oracle Cloud's older one. */
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254', '192.0.0.192']);

function isLinkLocalIpv4(host: string): boolean {
	return /^169\.254\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** IPv6 link-local is fe80::/10: fe80 to febf in the first group. */
function isLinkLocalIpv6(host: string): boolean {
	return /^fe[89ab][0-9a-f]:/.test(host);
}

/** An IPv4 address written inside IPv6 (::ffff:a9fe:a9fe, as the URL parser writes ::ffff:169.254.169.254). */
function embeddedIpv4(host: string): string | undefined {
	const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
	if (!match) return undefined;
	const [high, low] = [parseInt(match[1], 16), parseInt(match[2], 16)];
	return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The host of `baseUrl` when it is link-local or a cloud metadata endpoint, else undefined. The URL parser first
 * writes the host in its one canonical form, so 0xa9fea9fe, 2852039166 or 169.254.169.254. all read 169.254.169.254.
 */
export function refusedHost(baseUrl: string): string | undefined {
	let hostname: string;
	try {
		hostname = new URL(baseUrl).hostname.toLowerCase();
	} catch {
		return undefined;
	}
	const host = hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
	const mapped = embeddedIpv4(host);
	const refused =
		METADATA_NAMES.has(host) ||
		METADATA_ADDRESSES.has(host) ||
		isLinkLocalIpv4(host) ||
		isLinkLocalIpv6(host) ||
		(mapped !== undefined && (isLinkLocalIpv4(mapped) || METADATA_ADDRESSES.has(mapped)));
	return refused ? hostname : undefined;
}
