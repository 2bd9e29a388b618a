/**
 * A scripted OpenAI-compatible model on loopback, for n8n's OpenAI Chat Model node: it answers
 * POST /v1/chat/completions (with `tools`, plain or streamed as server-sent events) and POST /v1/responses
 * (the Responses API, the node's default from version 1.3) from a script instead of a model. Each conversation is
 * recognised by its user prompt; a turn either calls tools (arguments may be computed from the earlier results) or
 * gives the final answer built from the tool results. Every request body is recorded, so that the tools n8n
 * offered (names, descriptions, parameter schemas) can be checked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a tool answered, as the model saw it. */
export interface ToolResult {
	name: string;
	args: Record<string, unknown>;
	/** The text n8n sent back for the call (JSON of the tool's items, or an error). */
	output: string;
}

export interface TurnContext {
	prompt: string;
	/** Results of every tool call so far, oldest first. */
	results: ToolResult[];
}

export type Turn =
	| { toolCalls: Array<{ name: string; args: Record<string, unknown> }> }
	| { answer: string };

export interface Conversation {
	/** Text the user prompt contains. */
	prompt: string;
	/** One function per model turn; turn k is called after k tool rounds. */
	turns: Array<(context: TurnContext) => Turn>;
}

export interface RecordedRequest {
	path: string;
	body: Record<string, unknown>;
}

/** A tool as offered to the model, whichever API carried it. */
export interface OfferedTool {
	name: string;
	description: string;
	parameters: { type?: string; properties?: Record<string, { type?: string; description?: string }>; required?: string[] };
}

export interface ScriptedModel {
	/** Base URL for the OpenAI credential (ends in /v1). */
	url: string;
	requests: RecordedRequest[];
	/** Replaces the conversations the model follows. */
	script(conversations: Conversation[]): void;
	/** The tools offered in a recorded request. */
	toolsOf(request: RecordedRequest): OfferedTool[];
	stop(): Promise<void>;
}

type Json = Record<string, unknown>;

function text(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) => (part && typeof part === 'object' ? String((part as Json).text ?? '') : String(part)))
			.join('');
	}
	return '';
}

function parseArgs(raw: unknown): Record<string, unknown> {
	if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
	try {
		return JSON.parse(String(raw ?? '{}')) as Record<string, unknown>;
	} catch {
		return {};
	}
}

/** The conversation so far, from a chat completions request. */
function readChat(body: Json): { prompt: string; rounds: number; results: ToolResult[] } {
	const messages = (body.messages as Json[] | undefined) ?? [];
	const prompt = messages.filter((m) => m.role === 'user').map((m) => text(m.content)).join('\n');
	const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
	let rounds = 0;
	const results: ToolResult[] = [];
	for (const message of messages) {
		const toolCalls = message.tool_calls as Json[] | undefined;
		if (message.role === 'assistant' && toolCalls?.length) {
			rounds++;
			for (const call of toolCalls) {
				const fn = (call.function ?? {}) as Json;
				calls.set(String(call.id), { name: String(fn.name), args: parseArgs(fn.arguments) });
			}
		}
		if (message.role === 'tool') {
			const call = calls.get(String(message.tool_call_id));
			results.push({ name: call?.name ?? '', args: call?.args ?? {}, output: text(message.content) });
		}
	}
	return { prompt, rounds, results };
}

/** The conversation so far, from a Responses API request. */
function readResponses(body: Json): { prompt: string; rounds: number; results: ToolResult[] } {
	const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as Json[]) ?? []);
	const prompt = input.filter((m) => m.role === 'user').map((m) => text(m.content)).join('\n');
	const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
	const results: ToolResult[] = [];
	let rounds = 0;
	let previousWasCall = false;
	for (const item of input) {
		if (item.type === 'function_call') {
			if (!previousWasCall) rounds++;
			previousWasCall = true;
			calls.set(String(item.call_id), { name: String(item.name), args: parseArgs(item.arguments) });
			continue;
		}
		previousWasCall = false;
		if (item.type === 'function_call_output') {
			const call = calls.get(String(item.call_id));
			results.push({ name: call?.name ?? '', args: call?.args ?? {}, output: text(item.output) });
		}
	}
	return { prompt, rounds, results };
}

export async function startScriptedModel(): Promise<ScriptedModel> {
	let conversations: Conversation[] = [];
	const requests: RecordedRequest[] = [];
	let sequence = 0;
	const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++sequence).toString(36)}`;

	const turnFor = (state: { prompt: string; rounds: number; results: ToolResult[] }): Turn => {
		const conversation = conversations.find((c) => state.prompt.includes(c.prompt));
		if (!conversation) return { answer: `No script for: ${state.prompt.slice(0, 200)}` };
		const turn = conversation.turns[Math.min(state.rounds, conversation.turns.length - 1)];
		return turn({ prompt: state.prompt, results: state.results });
	};

	const chatCompletion = (body: Json, response: ServerResponse) => {
		const turn = turnFor(readChat(body));
		const id = nextId('chatcmpl');
		const created = Math.floor(Date.now() / 1000);
		const model = String(body.model ?? 'scripted');
		const toolCalls =
			'toolCalls' in turn
				? turn.toolCalls.map((call) => ({
						id: nextId('call'),
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.args) },
					}))
				: undefined;
		const content = 'answer' in turn ? turn.answer : null;
		const finish = toolCalls ? 'tool_calls' : 'stop';
		const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
		if (body.stream === true) {
			response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			const chunk = (delta: Json, finishReason: string | null, extra: Json = {}) =>
				response.write(
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
				);
			chunk({ role: 'assistant', content: toolCalls ? null : '' }, null);
			if (toolCalls) {
				toolCalls.forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }, null));
			} else {
				chunk({ content }, null);
			}
			chunk({}, finish, { usage });
			response.end('data: [DONE]\n\n');
			return;
		}
		send(response, 200, {
			id,
			object: 'chat.completion',
			created,
			model,
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
					finish_reason: finish,
				},
			],
			usage,
		});
	};

	const responsesApi = (body: Json, response: ServerResponse) => {
		if (body.stream === true) {
			send(response, 400, { error: { message: 'The scripted model does not stream the Responses API' } });
			return;
		}
		const turn = turnFor(readResponses(body));
		const output =
			'toolCalls' in turn
				? turn.toolCalls.map((call) => ({
						type: 'function_call',
						id: nextId('fc'),
						call_id: nextId('call'),
						name: call.name,
						arguments: JSON.stringify(call.args),
						status: 'completed',
					}))
				: [
						{
							type: 'message',
							id: nextId('msg'),
							role: 'assistant',
							status: 'completed',
							content: [{ type: 'output_text', text: turn.answer, annotations: [] }],
						},
					];
		send(response, 200, {
			id: nextId('resp'),
			object: 'response',
			created_at: Math.floor(Date.now() / 1000),
			status: 'completed',
			model: String(body.model ?? 'scripted'),
			output,
			parallel_tool_calls: true,
			tool_choice: 'auto',
			tools: body.tools ?? [],
			usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 },
		});
	};

	const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const path = (request.url ?? '').split('?')[0];
			let body: Json = {};
			try {
				body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json) : {};
			} catch {
				send(response, 400, { error: { message: 'The body is not JSON' } });
				return;
			}
			if (request.method === 'GET' && path.endsWith('/models')) {
				send(response, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', owned_by: 'test' }] });
				return;
			}
			if (request.method !== 'POST') {
				send(response, 404, { error: { message: `No route ${request.method} ${path}` } });
				return;
			}
			requests.push({ path, body });
			if (path.endsWith('/chat/completions')) return chatCompletion(body, response);
			if (path.endsWith('/responses')) return responsesApi(body, response);
			send(response, 404, { error: { message: `No route POST ${path}` } });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		script(next) {
			conversations = next;
		},
		toolsOf(request) {
			const tools = (request.body.tools as Json[] | undefined) ?? [];
			return tools.map((tool) => {
				const fn = (tool.function ?? tool) as Json;
				return {
					name: String(fn.name),
					description: String(fn.description ?? ''),
					parameters: (fn.parameters ?? {}) as OfferedTool['parameters'],
				};
			});
		},
		async stop() {
			server.closeAllConnections?.();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

function send(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}
