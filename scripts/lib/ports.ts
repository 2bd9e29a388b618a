import net from 'node:net';

/** A TCP port on 127.0.0.1 that is free right now (the OS picks it). */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** `preferred` when nothing listens on it, otherwise a free port. */
export async function preferredOrFreePort(preferred: number): Promise<number> {
	const free = await new Promise<boolean>((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(preferred, '127.0.0.1', () => server.close(() => resolve(true)));
	});
	return free ? preferred : await freePort();
}
