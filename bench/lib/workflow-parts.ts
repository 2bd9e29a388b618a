/** Pieces of the workflows the benchmarks run in real n8n (one process and queue mode alike). */

/** One n8n node at `x` on the canvas's first row. */
export function n8nNode(id: string, name: string, type: string, typeVersion: number, x: number, parameters: Record<string, unknown>) {
	return { id, name, type, typeVersion, position: [x, 0], parameters };
}

/** A Webhook node answering POSTs to `path` the way `responseMode` says. */
export function webhookNode(path: string, responseMode: Record<string, unknown>) {
	const node = n8nNode(`${path}-hook`, 'Webhook', 'n8n-nodes-base.webhook', 2, 0, { httpMethod: 'POST', path, ...responseMode, options: {} });
	return { ...node, webhookId: `${path}-id` };
}

/** The posted `items` as one item each. */
export const splitItemsNode = (x: number) =>
	n8nNode(`split-${x}`, 'Items', 'n8n-nodes-base.splitOut', 1, x, { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} });

/** Connections that chain the named nodes in order. */
export function chain(...names: string[]) {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < names.length - 1; i++) connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return connections;
}
