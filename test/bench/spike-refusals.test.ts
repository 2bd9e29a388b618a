/** The spike benchmark's tracing of each refused call to the worker that sent it. */
import { parseConnections } from '../../bench/spike/connections';
import { perWorker } from '../../bench/spike/outcome';

describe('tracing calls to workers', () => {
	it('reads which worker holds each connection to the sandbox from an ss listing', () => {
		const listing = [
			'0      0      127.0.0.1:37581 127.0.0.1:55216 users:(("MainThread",pid=15488,fd=28))',
			'0      0      127.0.0.1:55208 127.0.0.1:37581 users:(("node",pid=15384,fd=19))',
			'0      0      127.0.0.1:55216 127.0.0.1:37581 users:(("node",pid=15575,fd=20))',
			'0      0      127.0.0.1:55522 127.0.0.1:44043 users:(("node",pid=15384,fd=21))',
		].join('\n');
		const roles = new Map([
			[15384, 'worker-1'],
			[15575, 'worker-2'],
		]);
		// The sandbox's own side (pid 15488) and a connection to another server are left out.
		expect(parseConnections(listing, 37581, roles)).toEqual([
			[55208, 'worker-1'],
			[55216, 'worker-2'],
		]);
	});

	it('says the most refusals per worker and window, and how many could not be traced', () => {
		const traced = { max429PerWorkerWindow: 1, refusedUnattributed: 0 };
		expect(perWorker({ writes: traced, reads: { max429PerWorkerWindow: 0, refusedUnattributed: 0 } })).toBe(
			'; max 1 per worker and window',
		);
		expect(perWorker({ writes: { max429PerWorkerWindow: 2, refusedUnattributed: 3 }, reads: traced })).toBe(
			'; max 2 per worker and window, 3 not traced',
		);
		expect(perWorker({ writes: {}, reads: {} })).toBe('');
	});
});
