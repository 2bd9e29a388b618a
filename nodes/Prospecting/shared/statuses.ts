import type { INodePropertyOptions } from 'n8n-workflow';

/** The states of a prospection, as the API names them. */
export const PROSPECTION_STATUSES = ['IN_PROGRESS', 'FROZEN', 'WON', 'LOST'] as const;
export type ProspectionStatus = (typeof PROSPECTION_STATUSES)[number];

/** Names as the app shows them, values as the API takes them. */
export const prospectionStatusOptions: INodePropertyOptions[] = [
	{ name: 'Frozen (Congelada)', value: 'FROZEN' },
	{ name: 'In Progress (Em Andamento)', value: 'IN_PROGRESS' },
	{ name: 'Lost (Perdida)', value: 'LOST' },
	{ name: 'Won (Ganha)', value: 'WON' },
];
