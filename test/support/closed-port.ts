/** An address on loopback that refuses connections: the service unreachable, as when nothing runs on its port. */
import { freePort } from '../../scripts/lib/ports';

/** A port on 127.0.0.1 nothing listens on: one the system just handed out and took back (see `freePort`). */
export const closedPort = freePort;

/** `http://127.0.0.1:<closedPort>`: a base URL whose every request fails with ECONNREFUSED. */
export async function closedUrl(): Promise<string> {
	return `http://127.0.0.1:${await closedPort()}`;
}
