import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** One output item per record. The router pairs them with the input item. */
export function toItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((record) => ({ json: record }));
}

/** A field with nothing in it (absent, null or empty text), left out when a record is shaped for reading. */
export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

/** An item of a contact list (emails, phones, mobiles): `{ value, label }`. */
export function isContactItem(value: unknown): value is { value: unknown } {
	return !!value && typeof value === 'object' && !Array.isArray(value) && 'value' in value;
}
