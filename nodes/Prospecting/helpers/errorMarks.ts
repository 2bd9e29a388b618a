/**
 * Facts put on an error where it is made (its outcome, whether the credential is to mend), in the error's context:
 * what is built on them later (an error item, the trigger's advice) reads the mark, never the error's words.
 */
interface WithContext {
	context?: Record<string, unknown>;
}

/** Sets `key` on an error's context and returns the error; a thrown value that is not an object is left as it is. */
export function markError<E>(error: E, key: string, value: unknown): E {
	const target = error as unknown as WithContext;
	if (target && typeof target === 'object') {
		target.context ??= {};
		target.context[key] = value;
	}
	return error;
}

/** The value an error's context holds under `key`, if any. */
export const markOf = (error: unknown, key: string): unknown => (Object(error) as WithContext).context?.[key];
