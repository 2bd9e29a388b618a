/** Every resource and its operations, as stored in workflow JSON. */
export type ProspectingMap = {
	lead: 'create' | 'getMany';
	routine: 'getMany' | 'addLead';
	prospection: 'getMany' | 'getActivities' | 'getConversionRate';
	customField: 'getMany';
	conversationThread: 'getMany';
	webhook: 'getMany' | 'create' | 'delete';
};

export type ProspectingResource = keyof ProspectingMap;
