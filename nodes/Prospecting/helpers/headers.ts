/** Axios gives header names in lower case, n8n's tests and proxies not always: names are compared without case. */

/** The first value of a header, whatever the case of its name. */
export function headerValue(headers: Record<string, unknown> | undefined, name: string): unknown {
	const wanted = name.toLowerCase();
	for (const [key, entry] of Object.entries(headers ?? {})) {
		if (key.toLowerCase() === wanted) return Array.isArray(entry) ? entry[0] : entry;
	}
	return undefined;
}
