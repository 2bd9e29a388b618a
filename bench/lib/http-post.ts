/** POST of a JSON body with no client-side timeout (an execution behind a webhook may take minutes). */
import http from 'node:http';

export interface PostResult {
	status: number;
	body: string;
	wallMs: number;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<PostResult> {
	const payload = Buffer.from(JSON.stringify(body));
	const start = performance.now();
	return await new Promise<PostResult>((resolve, reject) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				headers: { 'content-type': 'application/json', 'content-length': String(payload.length), ...headers },
				timeout: 0,
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? 0,
						body: Buffer.concat(chunks).toString('utf8'),
						wallMs: performance.now() - start,
					}),
				);
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}
