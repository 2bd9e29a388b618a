import { markError, markOf } from './errorMarks';

/**
 * An error the user mends in the Prospecting API credential rather than by waiting for the service: a credential
 * that cannot be read, an empty key, a Base URL the node refuses or that answers with a redirect, a key the service
 * refused (401). Marked where the error is made, so that advice built on it does not hang on its words.
 */
const CREDENTIAL_KEY = 'mendInCredential';

/** Marks an error as one to mend in the credential and returns it. */
export const inCredential = <E extends object>(error: E): E => markError(error, CREDENTIAL_KEY, true);

export const isCredentialFault = (error: unknown): boolean => markOf(error, CREDENTIAL_KEY) === true;
