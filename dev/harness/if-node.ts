/**
 * n8n's If node (n8n-nodes-base.if, version 2.x) for test workflows: n8n-nodes-base is not a dependency of this
 * package, so the example workflows' If nodes run on this copy of its routing. The condition itself is evaluated by
 * n8n-core (a `filter` parameter read with `extractValue`), as in n8n: items that pass go to output 0 ("true"),
 * the others to output 1 ("false").
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export const IF_NODE_TYPE = 'n8n-nodes-base.if';

export class IfNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'If',
		name: 'if',
		group: ['transform'],
		version: [2, 2.1, 2.2, 2.3],
		description: 'Routes items to true or false',
		defaults: { name: 'If' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['true', 'false'],
		properties: [
			{
				displayName: 'Conditions',
				name: 'conditions',
				type: 'filter',
				default: {},
				typeOptions: {
					filter: {
						caseSensitive: '={{!$parameter.options.ignoreCase}}',
						typeValidation: '={{ $parameter.looseTypeValidation ? "loose" : "strict" }}',
						version: '={{ $nodeVersion >= 2.3 ? 3 : $nodeVersion >= 2.2 ? 2 : 1 }}',
					},
				},
			},
			{ displayName: 'Convert Types Where Required', name: 'looseTypeValidation', type: 'boolean', default: false },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const passed: INodeExecutionData[] = [];
		const failed: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const pass = this.getNodeParameter('conditions', itemIndex, false, { extractValue: true }) as boolean;
			(pass ? passed : failed).push({ ...item, pairedItem: item.pairedItem ?? { item: itemIndex } });
		});
		return [passed, failed];
	}
}
