/**
 * Another integration on the same API key: it creates its own leads, spread evenly over every window, a share of the
 * key's writes, while a spike runs in n8n. A refused create is not sent again (it counts as refused); the client never
 * waits for an answer before its next turn, as a cron job of another tool would not.
 */
import { benchLeadBody, leadsUrl } from './bare';

export interface OtherClientFigures {
	writesPerWindow: number;
	sent: number;
	created: number;
	refused: number;
	otherStatuses: Record<string, number>;
}

export function startOtherClient(baseUrl: string, apiKey: string, writesPerWindow: number, windowMs: number) {
	const figures: OtherClientFigures = { writesPerWindow, sent: 0, created: 0, refused: 0, otherStatuses: {} };
	const pending = new Set<Promise<void>>();
	const count = (status: string) => (figures.otherStatuses[status] = (figures.otherStatuses[status] ?? 0) + 1);
	const send = () => {
		const body = benchLeadBody('Outro cliente', figures.sent);
		figures.sent += 1;
		const call = (async () => {
			try {
				const response = await fetch(leadsUrl(baseUrl, apiKey, {}), {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});
				await response.arrayBuffer();
				if (response.status === 429) figures.refused += 1;
				else if (response.status < 300) figures.created += 1;
				else count(String(response.status));
			} catch {
				count('error');
			}
		})();
		pending.add(call);
		void call.finally(() => pending.delete(call));
	};
	send();
	const timer = setInterval(send, windowMs / writesPerWindow);
	return {
		async stop(): Promise<OtherClientFigures> {
			clearInterval(timer);
			await Promise.all(pending);
			return figures;
		},
	};
}
