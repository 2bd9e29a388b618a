/**
 * The API key travels in the query string, so any URL, error or echoed body can carry it.
 * These helpers remove it before anything reaches the user, the output or a log line.
 */

const REDACTED = '***';

/** Every form the key can take inside a text: plain, URL-encoded, and form-encoded. */
function secretForms(secret: string): string[] {
	if (!secret) return [];
	const forms = new Set<string>([secret]);
	try {
		forms.add(encodeURIComponent(secret));
		forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
		forms.add(encodeURIComponent(encodeURIComponent(secret)));
	} catch {
		// A lone surrogate cannot be encoded; the plain form is still removed.
	}
	// Longest first, so an encoded form is not left half-replaced by a shorter one.
	return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

/** Replaces `apiKey=<anything>` in URLs and query strings, whatever the key is. */
export function redactApiKeyParameter(text: string): string {
	return text.replace(/(apiKey|api_key|apikey)(=|%3D|:\s*"?)([^&\s"',}]*)/gi, `$1$2${REDACTED}`);
}

/** Removes the key (every form of it) and any apiKey parameter from a text. */
export function redactText(text: string, secret?: string): string {
	let result = String(text);
	if (secret) {
		for (const form of secretForms(secret)) {
			result = result.split(form).join(REDACTED);
		}
	}
	return redactApiKeyParameter(result);
}

function containsSecret(text: string, secret: string): boolean {
	return secretForms(secret).some((form) => text.includes(form));
}

/**
 * Returns the value with every string that contains the key redacted. Records are only
 * copied when the key is actually found, so the common case costs one JSON scan.
 */
export function redactValue<T>(value: T, secret?: string): T {
	if (!secret || value === null || value === undefined) return value;
	let serialised: string;
	try {
		serialised = typeof value === 'string' ? value : JSON.stringify(value);
	} catch {
		return value;
	}
	if (serialised === undefined || !containsSecret(serialised, secret)) return value;
	return deepRedact(value, secret) as T;
}

function deepRedact(value: unknown, secret: string): unknown {
	if (typeof value === 'string') return redactText(value, secret);
	if (Array.isArray(value)) return value.map((entry) => deepRedact(entry, secret));
	if (value && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
			copy[redactText(key, secret)] = deepRedact(entry, secret);
		}
		return copy;
	}
	return value;
}
