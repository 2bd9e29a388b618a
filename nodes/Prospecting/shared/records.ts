import type { IDataObject } from 'n8n-workflow';

/** A record answered either bare or wrapped in `{ data: {...} }`. */
export function unwrapRecord(body: unknown): IDataObject | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const object = body as IDataObject;
	if (
		object.id === undefined &&
		object.data &&
		typeof object.data === 'object' &&
		!Array.isArray(object.data)
	) {
		return object.data as IDataObject;
	}
	return object;
}
