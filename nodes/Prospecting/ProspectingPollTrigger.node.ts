import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { filtersCollection, multiValueFilter, textFilter } from './shared/filters.description';
import { prospectionFilterCollections } from './shared/prospectionFilters.description';
import { listSearch } from './methods';
import { pollProspecting } from './polling/poll';
import { prospectionStatusOptions } from './shared/statuses';

export class ProspectingPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Prospecting Polling Trigger',
		name: 'prospectingPollTrigger',
		icon: { light: 'file:prospecting.svg', dark: 'file:prospecting.dark.svg' },
		group: ['trigger'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["event"]}}',
		description:
			'Starts the workflow on a schedule when a lead or prospection is created, or a prospection changes status',
		defaults: {
			name: 'Prospecting Polling Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'prospectingApi',
				required: true,
			},
		],
		properties: [
			{
				displayName:
					'Each poll reads from the account\'s 200 reads per minute, shared with every other workflow using this key: New Lead and New Prospection cost 1 read per poll (1 more per 100 new records); Prospection Status Changed costs 1 read per watched status (more when a status holds over 100 prospections, see Check)',
				name: 'readCostNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				default: 'newLead',
				options: [
					{
						name: 'New Lead',
						value: 'newLead',
						description: 'A lead was created, in the app or through the API',
					},
					{
						name: 'New Prospection',
						value: 'newProspection',
						description: 'A prospection was started',
					},
					{
						name: 'Prospection Status Changed',
						value: 'prospectionStatusChanged',
						description: 'A prospection entered one of the chosen statuses',
					},
				],
			},
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'multiOptions',
				required: true,
				default: ['FROZEN'],
				description: 'Emit a prospection when it enters one of these statuses',
				displayOptions: { show: { event: ['prospectionStatusChanged'] } },
				options: prospectionStatusOptions,
			},
			{
				displayName: 'Check',
				name: 'checkMode',
				type: 'options',
				default: 'whenCountChanges',
				description:
					'How a status holding more than 100 prospections is checked. Up to 100, one read per status checks it exactly.',
				displayOptions: { show: { event: ['prospectionStatusChanged'] } },
				options: [
					{
						name: 'When Its Count Changes',
						value: 'whenCountChanges',
						description:
							'1 read per status; the whole list (1 read per 100) only when its count changed. Misses a change cancelled by another between two polls.',
					},
					{
						name: 'Every Poll',
						value: 'everyPoll',
						description: 'Reads the whole list of each status on every poll (1 read per 100)',
					},
				],
			},
			filtersCollection(
				[
					multiValueFilter('Created By IDs', 'createdByIds', 'leads created by these users'),
					textFilter('Lead Status', 'leadStatus', 'Only leads with this status'),
					multiValueFilter('Routine IDs', 'routineIds', 'leads in these routines'),
					multiValueFilter('Source IDs', 'sourceIds', 'leads from these sources'),
				],
				{ show: { event: ['newLead'] } },
			),
			...prospectionFilterCollections(
				[
					{
						displayName: 'Status',
						name: 'status',
						type: 'multiOptions',
						default: [],
						description: 'Only prospections created in these statuses',
						options: prospectionStatusOptions,
					},
				],
				{ show: { event: ['newProspection'] } },
			),
			...prospectionFilterCollections([], { show: { event: ['prospectionStatusChanged'] } }),
		],
	};

	methods = { listSearch };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollProspecting.call(this);
	}
}
