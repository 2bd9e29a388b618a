import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { unwrapRecord } from '../../shared/records';
import { asNodeError, withNote } from '../../helpers/nodeError';
import { isOutcomeUnknown } from '../../helpers/outcome';
import { prospectingApiRequest } from '../../transport/request';
import { guardWrite } from '../dryRun';
import { writeOnce } from '../writeMemory';
import { writeOperationDescription } from '../dryRun.description';
import { idText, writeSettings } from '../parameters';
import { pathSegment } from '../pathSegment';
import { recordLocator } from '../../shared/recordLocator';
import { FROM_VERSION_2, inVersions, VERSION_1_ONLY } from '../../shared/versions';

const properties: INodeProperties[] = [
	recordLocator({
		displayName: 'Routine',
		name: 'routineId',
		searchListMethod: 'searchRoutines',
		required: true,
		description: 'The routine (Cadência) to add the lead to',
	}),
	inVersions(VERSION_1_ONLY, {
		displayName: 'Lead ID',
		name: 'leadId',
		type: 'string',
		required: true,
		default: '',
		description: 'The lead to add to the routine',
	}),
	inVersions(
		FROM_VERSION_2,
		recordLocator({
			displayName: 'Lead',
			name: 'leadId',
			searchListMethod: 'searchLeads',
			required: true,
			description: 'The lead to add to the routine. Search by name, company, email or phone.',
		}),
	),
	{
		displayName: 'Responsible ID',
		name: 'responsibleId',
		type: 'string',
		default: '',
		description:
			'The salesperson responsible for the lead. When given (or when the account distributes leads automatically), prospecting starts right away.',
	},
];

export const description = writeOperationDescription('routine', 'addLead', properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const rawRoutineId = this.getNodeParameter('routineId', i, '', { extractValue: true }) as unknown;
	const routineId = pathSegment(this.getNode(), i, 'routineId', rawRoutineId);
	const leadId = idText.call(
		this,
		i,
		'leadId',
		this.getNodeParameter('leadId', i, undefined, { extractValue: true }),
		true,
	);
	const responsibleId = idText.call(
		this,
		i,
		'responsibleId',
		this.getNodeParameter('responsibleId', i),
		false,
	);
	const settings = writeSettings.call(this, i);

	const body: IDataObject = { leadId };
	if (responsibleId) body.responsibleId = responsibleId;
	const dryRun = await guardWrite.call(this, {
		operation: 'Routine Add Lead',
		itemIndex: i,
		request: { method: 'POST', path: `/routines/${routineId}/lead`, body },
	});
	if (dryRun) return dryRun;
	const path = `/routines/${routineId}/lead`;
	const howToCheck = `Check in the app, or with Prospection → Get Many filtered by Lead ID ${leadId} when prospecting starts on adding, before running this item again.`;
	if (this.getMode() === 'retry') {
		// A retried execution runs this item again from the stored input, and no read tells whether the lead is
		// already in the routine: the add is sent, and may add it a second time.
		this.logger.warn(
			`Prospecting: Routine Add Lead of lead ${leadId} runs again in a retried execution; whether the failed execution already added it is not known (no read can tell), so it may be added twice. ${howToCheck}`,
		);
	}
	const send = async (): Promise<INodeExecutionData[]> => {
		let response: unknown;
		try {
			response = await prospectingApiRequest.call(this, 'POST', path, {
				...settings,
				body,
				recordLabel: `Routine "${String(rawRoutineId).trim()}" or lead "${leadId}"`,
				expect: { record: 'optional', isWritten: (record) => namesTheLead(record, leadId) },
			});
		} catch (error) {
			if (!isOutcomeUnknown(error)) throw asNodeError(this.getNode(), error);
			// No read tells whether a lead is in a routine, and a second add may start the same person twice.
			throw withNote(
				this.getNode(),
				error,
				`The lead may have been added (or may still be added by a slow service). ${howToCheck}`,
			);
		}
		// The answer's shape is not published: pass it on when there is one, otherwise say what was done.
		const record = unwrapRecord(response);
		if (record && Object.keys(record).length > 0) return [{ json: record }];
		const result: IDataObject = { routineId: String(rawRoutineId).trim(), leadId, added: true };
		if (responsibleId) result.responsibleId = responsibleId;
		return [{ json: result }];
	};
	// An earlier try of this execution (n8n's Retry On Fail) whose answer was lost: never sent again. Its outcome is
	// unknown, as the router says of every write error that proves nothing.
	const afterUnknown = async (): Promise<INodeExecutionData[]> => {
		throw new NodeOperationError(
			this.getNode(),
			`Lead ${leadId} may have been added to the routine: an earlier try of this node sent it and its answer was lost`,
			{
				itemIndex: i,
				description: `It was not sent again, as a second add may start prospecting the same person twice. ${howToCheck} (item ${i}, POST ${path})`,
			},
		);
	};
	return await writeOnce<undefined>(this, i, {
		send: async (sending) => {
			sending(undefined);
			return await send();
		},
		again: afterUnknown,
	});
}

/**
 * Whether an answer to an add can be this add's: its shape is not published, but one that names a lead (its leadId,
 * or a lead's own record) names the lead sent.
 */
function namesTheLead(record: Record<string, unknown>, leadId: string): boolean {
	if (record.leadId !== undefined) return String(record.leadId) === leadId;
	const isLead = ['emails', 'phones', 'mobiles'].some((kind) => kind in record);
	return !isLead || String(record.id) === leadId;
}
