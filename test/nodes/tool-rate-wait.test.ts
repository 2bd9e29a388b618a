/**
 * Max Rate Limit Wait in the tool form bounds every wait of a call, as an agent waiting on an answer needs: a tool
 * call behind a bulk walk that holds the key's budget fails at once, naming the wait, instead of sitting in the queue.
 * In a workflow the same option bounds only the waits after a refusal, so the walk is paced, not failed.
 */
import { registerNodeType } from '../../dev/harness';
import { PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm, runToolForm } from '../../dev/harness/tool-form';
import { runNode } from './support';
import { useSandbox } from '../support/sandbox';

const WINDOW_SECONDS = 2;
// One read per window: a walk of three pages spends every window it runs in.
const { sandbox, connection } = useSandbox({ windowSeconds: WINDOW_SECONDS, readLimit: 1, dataset: { leads: 3, customFields: 1 } });
beforeAll(() => registerNodeType(PROSPECTING_TOOL_NODE_TYPE, prospectingToolForm()));

const credential = { rateLimitWindowSeconds: WINDOW_SECONDS, readsPerWindow: 1 };

it('a tool call with Max Rate Limit Wait 0 behind a walk holding the budget fails at once, naming the wait, and sends nothing', async () => {
	const walk = runNode(
		{ resource: 'lead', operation: 'getMany', returnAll: true, options: { pageSize: 1 } },
		{ ...connection, rateLimitWindowSeconds: WINDOW_SECONDS },
	);
	// Once the walk's first page is answered, the window's one read is spent.
	while (!sandbox.control.requests().some((request) => request.status === 200)) {
		await new Promise((resolve) => setTimeout(resolve, 20));
	}

	const tool = await runToolForm(
		sandbox,
		{ resource: 'customField', operation: 'getMany', returnAll: true, options: { maxRateLimitWait: 0 } },
		{ credential },
	);

	const toolRequests = sandbox.control.requests().filter((request) => request.path.endsWith('/custom-fields'));
	// The walk itself, in a workflow, is paced through the windows rather than failed (awaited first, so that a failing
	// assertion below leaves nothing running into the next test).
	const walked = await walk;
	expect(walked.error).toBeUndefined();
	expect(walked.items).toHaveLength(3);

	// Answered to the agent as text (the tool form's default), so it can say why and try later. It left at once: the
	// wait shown is the event loop's turn, a fraction of a second on a loaded machine.
	const answer = String(tool.items[0]?.json.error);
	expect(answer).toMatch(/^Rate limit still reached after waiting \d+(\.\d)? s in total \(maximum 0 s\)\n/);
	expect(answer).toMatch(
		/The rate limit of this key lets this call go (in \d+(\.\d)? s at the earliest|only after the calls ahead of it), more than the 0 s left of the maximum, so it was not sent\./,
	);
	expect(toolRequests).toHaveLength(0);
}, 30_000);

it('a tool call left at the default waits for a window that opens within its bound, and answers', async () => {
	const first = await runToolForm(sandbox, { resource: 'customField', operation: 'getMany', returnAll: true }, { credential });
	expect(first.error).toBeUndefined();
	const second = await runToolForm(sandbox, { resource: 'customField', operation: 'getMany', returnAll: true }, { credential });
	expect(second.error).toBeUndefined();
	expect(sandbox.control.requests().map((request) => request.status)).toEqual([200, 200]);
}, 30_000);
