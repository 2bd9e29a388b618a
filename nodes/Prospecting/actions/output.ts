import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** One output item per record. The router pairs them with the input item. */
export function toItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((record) => ({ json: record }));
}
