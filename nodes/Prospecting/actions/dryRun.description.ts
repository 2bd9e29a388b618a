import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { writeOptions } from './common.descriptions';

/**
 * Shown on every write operation (Lead Create, Routine Add Lead, Webhook Create, Webhook Delete), so that
 * nobody is surprised by what a click on Execute step does to production data.
 */
export const dryRunProperties: INodeProperties[] = [
	{
		displayName:
			'This operation writes to production (the service has no test environment). In manual runs it follows the credential\'s "Writes in Manual Runs" (Dry Run unless changed); active workflows always send. Dry Run below overrides both for this node.',
		name: 'dryRunNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'options',
		default: 'credential',
		options: [
			{
				name: 'Use Credential Setting',
				value: 'credential',
				description:
					'Manual runs follow the credential\'s "Writes in Manual Runs"; active workflows send',
			},
			{
				name: 'Always Dry Run',
				value: 'always',
				description:
					'Never send this write, also in active workflows: output the request it would send',
			},
			{
				name: 'Always Send',
				value: 'never',
				description: 'Send this write for real, also in manual runs from the editor',
			},
		],
		description:
			'Whether this write is sent to the service or only shown. Checks and reads (such as Skip If Exists) run either way.',
	},
];

/** A write operation's own fields, then its Options and Dry Run, shown for that operation alone. */
export function writeOperationDescription(
	resource: string,
	operation: string,
	fields: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, [
		...fields,
		writeOptions(),
		...dryRunProperties,
	]);
}
