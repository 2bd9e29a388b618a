/**
 * A lead-capture spike: hundreds of form posts start executions at once in one n8n process, each
 * running Lead Create (Skip If Exists) → Routine Add Lead on one key. The shared budget must hold
 * from the first call on: no 429 in any window, every lead and every routine add once. Where the
 * service sends its rate headers only with a 429 (as the spec documents them), the credential's
 * limits pace the spike from the first call, whatever the phase of windows aligned to the clock.
 */

import { startSandbox } from '../../sandbox';
import type { RecordedRequest, RunningSandbox } from '../../sandbox';
import { resetBudgets } from '../../nodes/Prospecting/transport/rateBudget';
import { executeWorkflow } from '../../dev/harness';
import { formPost, inLine, prospectingNamed } from './support';

const WINDOW_SECONDS = 1;
// Fewer calls per window than posts, so the spike spans windows; few enough windows to stay quick.
const LIMIT = 100;
const POSTS = 200;

let sandbox: RunningSandbox;
let routineId: string;

beforeAll(async () => {
	sandbox = await startSandbox({
		windowSeconds: WINDOW_SECONDS,
		readLimit: LIMIT,
		writeLimit: LIMIT,
		dataset: { leads: 5 },
	});
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.control.reset();
	routineId = sandbox.control.routines()[0].id;
});

function leadCaptureWorkflow() {
	return inLine(
		formPost,
		prospectingNamed('Lead Create', {
			resource: 'lead',
			operation: 'create',
			name: '={{ $json.name }}',
			email: '={{ $json.email }}',
			options: { skipIfExists: true },
		}),
		prospectingNamed('Routine Add Lead', {
			resource: 'routine',
			operation: 'addLead',
			routineId: { __rl: true, mode: 'id', value: routineId },
			leadId: '={{ $json.id }}',
		}),
	);
}

/** 429s per window of the service, windows opened as the service opens them (at the first call after the last one closed). */
function refusalsPerWindow(requests: RecordedRequest[], kind: 'read' | 'write', windowSeconds = WINDOW_SECONDS): number[] {
	const windows: number[] = [];
	let windowEnd = -Infinity;
	for (const request of requests.filter((entry) => entry.kind === kind)) {
		const at = Date.parse(request.at);
		if (at >= windowEnd) {
			windowEnd = at + windowSeconds * 1000;
			windows.push(0);
		}
		if (request.status === 429) windows[windows.length - 1] += 1;
	}
	return windows;
}

async function spike(posts: Array<{ name: string; email: string }>, windowSeconds = WINDOW_SECONDS, credential: Record<string, string> = {}) {
	const workflow = leadCaptureWorkflow();
	return await Promise.all(
		posts.map(
			async (post) =>
				await executeWorkflow(workflow, {
					credentials: {
						prospectingApi: {
							baseUrl: sandbox.url,
							apiKey: sandbox.apiKey,
							rateLimitWindowSeconds: windowSeconds,
							readsPerWindow: LIMIT,
							writesPerWindow: LIMIT,
							...credential,
						},
					},
					inputItems: [post],
					mode: 'webhook',
				}),
		),
	);
}

const formPosts = (prefix: string) =>
	Array.from({ length: POSTS }, (_, index) => ({
		name: `Pessoa ${prefix} ${index}`,
		email: `${prefix}.${index}@example.com`,
	}));

function expectEveryPostOnce(
	posts: Array<{ email: string }>,
	runs: Awaited<ReturnType<typeof spike>>,
	mostRefusals = 0,
) {
	expect(runs.map((run) => run.error?.message).filter(Boolean)).toEqual([]);
	const requests = sandbox.control.requests();
	const refusals = {
		read: refusalsPerWindow(requests, 'read'),
		write: refusalsPerWindow(requests, 'write'),
	};
	if (mostRefusals === 0) {
		// Compared whole, so a failure shows the count of every window.
		expect(refusals).toEqual({
			read: refusals.read.map(() => 0),
			write: refusals.write.map(() => 0),
		});
	} else {
		expect(requests.filter((request) => request.status === 429).length).toBeLessThanOrEqual(mostRefusals);
	}
	const emails = sandbox.control.leads().flatMap((lead) => lead.emails.map((email) => email.value));
	for (const post of posts) expect(emails.filter((email) => email === post.email)).toHaveLength(1);
	const adds = requests.filter(
		(request) =>
			request.method === 'POST' && request.path.endsWith('/lead') && request.status < 300,
	);
	expect(adds).toHaveLength(posts.length);
	const added = sandbox.control
		.leads()
		.filter((lead) => posts.some((post) => lead.emails.some((email) => email.value === post.email)))
		.filter((lead) => lead.routineIds.includes(routineId));
	expect(added).toHaveLength(posts.length);
}

it('200 form posts arriving at once, with no earlier answer in this process, get no 429 and give every lead and routine add once', async () => {
	resetBudgets();
	const posts = formPosts('first');
	const runs = await spike(posts);
	expectEveryPostOnce(posts, runs);
}, 60_000);

it('a second spike of 200 posts on a budget already fed by answers gets no 429 in any window either', async () => {
	// The sandbox's reset between tests starts its windows afresh, which a service never does mid-window; a
	// second spike comes after the budget's last window has ended, as here.
	await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 500));
	const posts = formPosts('second');
	const runs = await spike(posts);
	expectEveryPostOnce(posts, runs);
}, 60_000);

/** Starts the next spike part-way into a window aligned to the clock, as a campaign's posts would. */
async function partWayIntoAWindow(windowSeconds = WINDOW_SECONDS): Promise<void> {
	const windowMs = windowSeconds * 1000;
	await new Promise((resolve) => setTimeout(resolve, windowMs + windowMs / 2 - (Date.now() % windowMs)));
}

describe('a service that sends its rate headers only with a 429, windows aligned to the clock', () => {
	beforeAll(() => sandbox.control.setRateLimit({ rateHeaders: 'on-429', clockWindows: true }));
	afterAll(() => sandbox.control.setRateLimit({ rateHeaders: 'always', clockWindows: false }));

	it('200 form posts at once are paced on the credential\'s limits from the first call: at most 2 × 429 in the whole spike, every lead and routine add once', async () => {
		resetBudgets();
		await partWayIntoAWindow();
		const posts = formPosts('quiet');
		const runs = await spike(posts);
		// A local limit that never lets more than a window's calls go within a window's length cannot be refused by a
		// fixed window whatever its phase; two allows for a call delayed past the margin on a loaded machine.
		expectEveryPostOnce(posts, runs, 2);
	}, 60_000);

	it("learns where the service's windows end from one refusal: each later window's writes begin as it opens, again for a spike after a pause", async () => {
		// Windows of a few seconds, so that half a window is far more than a loaded machine's delays.
		const windowSeconds = 3;
		const windowMs = windowSeconds * 1000;
		sandbox.control.setRateLimit({ windowSeconds });
		try {
			resetBudgets();
			for (const prefix of ['phase', 'after-a-pause']) {
				// The second spike comes after a pause of a window or more, in the same process, mostly before its budget is
				// dropped for idleness (three windows): what the budget learnt of the phase may be out of step by then.
				if (prefix !== 'phase') await new Promise((resolve) => setTimeout(resolve, windowMs));
				await partWayIntoAWindow(windowSeconds);
				const from = sandbox.control.requests().length;
				const posts = formPosts(prefix);
				const runs = await spike(posts, windowSeconds);
				expect(runs.map((run) => run.error?.message).filter(Boolean)).toEqual([]);
				const requests = sandbox.control.requests().slice(from);
				expect(requests.filter((request) => request.status === 429).length).toBeLessThanOrEqual(2);
				const intoWindow = new Map<number, number>();
				for (const request of requests.filter((entry) => entry.kind === 'write' && entry.status < 300)) {
					const at = Date.parse(request.at);
					const window = Math.floor(at / windowMs);
					if (!intoWindow.has(window)) intoWindow.set(window, at - window * windowMs);
				}
				// The spike begins half-way into a window or later (n8n takes the posts in first); a budget that does not
				// know the phase waits a window's length from its first calls, so at least half-way into each later window
				// too. The window after the refusal begins when its Retry-After (whole seconds) has passed.
				const [, afterRefusal, ...later] = [...intoWindow.entries()].sort(([x], [y]) => x - y).map(([, ms]) => ms);
				expect({ prefix, afterRefusal: afterRefusal < 1000 + windowMs / 2 }).toEqual({ prefix, afterRefusal: true });
				expect(later.length).toBeGreaterThanOrEqual(2);
				expect({ prefix, late: later.filter((ms) => ms >= windowMs / 2) }).toEqual({ prefix, late: [] });
			}
			const emails = sandbox.control.leads().flatMap((lead) => lead.emails.map((email) => email.value));
			for (const post of [...formPosts('phase'), ...formPosts('after-a-pause')]) expect(emails.filter((email) => email === post.email)).toHaveLength(1);
		} finally {
			sandbox.control.setRateLimit({ windowSeconds: WINDOW_SECONDS });
		}
	}, 120_000);
});

describe.each(['epoch-ms', 'epoch-seconds'] as const)(
	'X-RateLimit-Reset as %s on every answer, windows aligned to the clock',
	(resetFormat) => {
		beforeAll(() => sandbox.control.setRateLimit({ resetFormat, clockWindows: true }));
		afterAll(() => sandbox.control.setRateLimit({ resetFormat: 'epoch-seconds', clockWindows: false }));

		it('200 form posts at once part-way into a window get no 429 and give every lead and routine add once', async () => {
			resetBudgets();
			await partWayIntoAWindow();
			const posts = formPosts(resetFormat);
			const runs = await spike(posts);
			expectEveryPostOnce(posts, runs);
		}, 60_000);
	},
);

describe('a service whose clock is 1 s behind, as its epoch resets show', () => {
	// Windows of a few seconds, so that a second of difference is a part of one, not all of it.
	const windowSeconds = 3;
	beforeAll(() => sandbox.control.setRateLimit({ clockOffsetMs: -1_000, windowSeconds }));
	afterAll(() => sandbox.control.setRateLimit({ clockOffsetMs: 0, windowSeconds: WINDOW_SECONDS }));

	it('200 form posts at once give every lead and routine add once; the first refusal teaches the difference, so no later window is refused', async () => {
		resetBudgets();
		const posts = formPosts('behind');
		const runs = await spike(posts, windowSeconds);
		expectEveryPostOnce(posts, runs, 2);
		const requests = sandbox.control.requests();
		const refused = { read: refusalsPerWindow(requests, 'read', windowSeconds), write: refusalsPerWindow(requests, 'write', windowSeconds) };
		// Refusals only in the window of the first one, which shows the service's window had not ended yet: the spike
		// fills its first window only as fast as the executions start, so that may be any window.
		const afterTheFirst = (counts: number[]) => counts.slice(counts.findIndex((count) => count > 0) + 1);
		expect({ read: afterTheFirst(refused.read).filter(Boolean), write: afterTheFirst(refused.write).filter(Boolean) }).toEqual({ read: [], write: [] });
	}, 60_000);
});
