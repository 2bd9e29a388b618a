/**
 * Captures every log line n8n-core and the nodes emit, so tests can scan them for secrets.
 *
 * One capturing logger is installed per jest worker, both as n8n-workflow's LoggerProxy target and as
 * the `Logger` service n8n-core's contexts resolve from the DI container (`this.logger`). Each
 * workflow run collects its own lines through an AsyncLocalStorage scope, so runs started
 * concurrently in one test file do not mix their logs. Console output written during a run is
 * recorded the same way (and still printed).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';
import type { Logger as WorkflowLogger, LogMetadata } from 'n8n-workflow';

export interface LogSink {
	lines: string[];
}

const scope = new AsyncLocalStorage<LogSink>();

/** Every line captured in this worker, across all runs (also lines logged outside any run). */
export const allLogLines: string[] = [];

/** Renders metadata the way a log transport would, including error messages, stacks and causes. */
export function serialiseMetadata(metadata: unknown): string {
	if (metadata === undefined) return '';
	try {
		return JSON.stringify(metadata, (_key, value: unknown) => {
			if (value instanceof Error) {
				const error = value as Error & Record<string, unknown>;
				return { ...error, name: error.name, message: error.message, stack: error.stack };
			}
			if (typeof value === 'bigint') return value.toString();
			return value;
		});
	} catch {
		// Circular structures (requests, sockets) still have to be scannable.
		return inspect(metadata, { depth: 6, breakLength: Infinity });
	}
}

function record(line: string): void {
	allLogLines.push(line);
	scope.getStore()?.lines.push(line);
}

function write(level: string, message: string, metadata?: LogMetadata): void {
	const rendered = serialiseMetadata(metadata);
	record(`[${level}] ${message}${rendered ? ` ${rendered}` : ''}`);
	if (process.env.N8N_TEST_LOG_PRINT === 'true') {
		process.stderr.write(`[${level}] ${message} ${rendered}\n`);
	}
}

/** Implements both n8n-workflow's Logger and the parts of backend-common's Logger n8n-core calls. */
class CapturingLogger implements WorkflowLogger {
	error(message: string, metadata?: LogMetadata) {
		write('error', message, metadata);
	}

	warn(message: string, metadata?: LogMetadata) {
		write('warn', message, metadata);
	}

	info(message: string, metadata?: LogMetadata) {
		write('info', message, metadata);
	}

	debug(message: string, metadata?: LogMetadata) {
		write('debug', message, metadata);
	}

	scoped(): CapturingLogger {
		return this;
	}
}

let installed = false;

/** Installs the capturing logger and the console recorder once per worker. */
export function installLogCapture(): void {
	if (installed) return;
	installed = true;

	const logger = new CapturingLogger();
	LoggerProxy.init(logger);
	Container.set(Logger, logger as unknown as Logger);

	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
		const original = console[method].bind(console);
		console[method] = (...args: unknown[]) => {
			const sink = scope.getStore();
			if (sink) {
				const text = args
					.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 6 })))
					.join(' ');
				sink.lines.push(`[console.${method}] ${text}`);
				allLogLines.push(`[console.${method}] ${text}`);
			}
			original(...args);
		};
	}
}

/** Runs `fn` with its own log sink; lines logged by anything it awaits land in `sink.lines`. */
export async function withLogSink<T>(sink: LogSink, fn: () => Promise<T>): Promise<T> {
	return await scope.run(sink, fn);
}
