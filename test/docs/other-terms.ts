/**
 * Words the user's guide may set in bold or italics that are not the nodes' or the credential's: n8n's own menus,
 * buttons and settings, the example workflows' node names, and the MCP tools' clients. A parameter or option of this
 * package does not belong here: the guide names those as the forms show them, and the tests check them there.
 */
export const OTHER_TERMS = new Set<string>([
	// n8n's menus, buttons and pages
	'Settings',
	'Community Nodes',
	'Install',
	'Credentials',
	'Create',
	'Create credential',
	'Test',
	'Import from File',
	'⋯',
	'Publish',
	'Active',
	'Executions',
	'Execute step',
	'Listen for test event',
	'Fetch Test Event',
	'Production URL',
	'API settings',
	// n8n's node settings and parameters of n8n's own nodes
	'Continue On Fail',
	'Retry On Fail',
	'Poll Times',
	'From List',
	'By ID',
	'HTTP Request',
	'Predefined Credential Type',
	'AI Agent',
	'MCP Server Trigger',
	'OpenAI Chat Model',
	'Tool Description',
	'Set Manually',
	'Authentication',
	'Bearer Auth',
	'None',
	// the example workflows' nodes, note and credential
	'Lead form',
	'Create lead',
	'Add to routine',
	'Before you publish',
	'MCP Bearer Token',
	// MCP clients
	'MCP Inspector',
	'Desktop assistants that start local servers',
	'Clients that speak HTTP',
]);
