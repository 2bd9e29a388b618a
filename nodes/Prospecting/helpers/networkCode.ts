/** The network error code of a failed call, read from n8n's wrapper or the HTTP client's error. */
export function networkCode(error: unknown): string | undefined {
	const candidates: unknown[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		candidates.push(current);
		current = (current as { cause?: unknown }).cause;
	}
	for (const candidate of candidates) {
		// n8n's wrapper keeps the code in httpCode when it cannot keep the original error as cause.
		for (const field of ['code', 'httpCode'] as const) {
			const code = (candidate as Record<string, unknown>)[field];
			if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		}
	}
	for (const candidate of candidates) {
		const texts = [
			(candidate as { message?: unknown }).message,
			...(((candidate as { messages?: unknown }).messages as unknown[] | undefined) ?? []),
		].map((text) => String(text ?? ''));
		for (const text of texts) {
			const match = /\b(E[A-Z]{4,}(?:_[A-Z]+)*)\b/.exec(text);
			if (match) return match[1];
		}
		const message = texts.join(' ').toLowerCase();
		if (message.includes('socket hang up')) return 'SOCKET_HANG_UP';
		if (message.includes('timeout')) return 'ETIMEDOUT';
		if (message.includes('aborted') || message.includes('canceled')) return 'ERR_CANCELED';
	}
	return undefined;
}

