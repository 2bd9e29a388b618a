/**
 * An error the user mends in the Prospecting API credential rather than by waiting for the service: a credential
 * that cannot be read, an empty key, a Base URL the node refuses or that answers with a redirect, a key the service
 * refused (401). Marked where the error is made, so that advice built on it does not hang on its words.
 */
const CREDENTIAL_KEY = 'mendInCredential';

interface WithContext {
	context?: Record<string, unknown>;
}

/** Marks an error as one to mend in the credential and returns it. */
export function inCredential<E extends object>(error: E): E {
	const target = error as WithContext;
	target.context ??= {};
	target.context[CREDENTIAL_KEY] = true;
	return error;
}

export function isCredentialFault(error: unknown): boolean {
	return (Object(error) as WithContext).context?.[CREDENTIAL_KEY] === true;
}
