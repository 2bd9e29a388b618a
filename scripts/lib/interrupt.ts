/**
 * Ctrl-C (and a TERM or HUP from a CI timeout or a closed terminal) while a script runs servers: `stop` runs once,
 * then the process exits. Returns the function that removes the handlers once the script has stopped them itself.
 */
export function stopOnInterrupt(stop: () => Promise<void>, exitCode = 130): () => void {
	let stopping = false;
	const onSignal = () => {
		if (stopping) return;
		stopping = true;
		void stop()
			.catch(() => undefined)
			.finally(() => process.exit(exitCode));
	};
	const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const signal of signals) process.on(signal, onSignal);
	return () => {
		for (const signal of signals) process.removeListener(signal, onSignal);
	};
}
