/**
 * Every catch block passes its error through asNodeError, so n8n always gets one of its own errors: n8n's errors
 * as they are (their description, item and outcome kept), anything else wrapped and naming the node.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError, withNote } from '../../nodes/Prospecting/helpers/nodeError';

const node = { id: '1', name: 'Prospecting', type: 'n8n-nodes-prospecting.prospecting', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

describe('an error as n8n gets it', () => {
	it("passes n8n's own errors on as they are", () => {
		const api = new NodeApiError(node, { message: 'Rotina não encontrada.' });
		const operation = new NodeOperationError(node, 'Lead ID is required');
		expect(asNodeError(node, api)).toBe(api);
		expect(asNodeError(node, operation)).toBe(operation);
	});

	it('passes on as they are errors of n8n from another copy of its library, as a community package install may load', () => {
		for (const name of ['NodeApiError', 'NodeOperationError']) {
			const foreign = Object.assign(new Error('Parameter "leadId" is required'), { name, description: 'set it' });
			expect(asNodeError(node, foreign)).toBe(foreign);
		}
	});

	it('wraps anything else, keeping its message: an Error, a string, nothing at all', () => {
		const wrapped = asNodeError(node, new TypeError('fetch failed'));
		expect(wrapped).toBeInstanceOf(NodeOperationError);
		expect(wrapped.message).toBe('fetch failed');
		expect(asNodeError(node, 'o serviço caiu').message).toBe('o serviço caiu');
		expect(asNodeError(node, undefined).message).toBe('undefined');
		expect(asNodeError(node, Object.assign(new Error('x'), { name: 'ExpressionError' }))).toBeInstanceOf(NodeOperationError);
	});

	it('a note is added below what the description already says, or stands alone', () => {
		const described = new NodeOperationError(node, 'failed', { description: 'The service failed.' });
		expect(withNote(node, described, 'The lead was found later.').description).toBe('The service failed.\nThe lead was found later.');
		expect(withNote(node, new Error('failed'), 'The lead was found later.').description).toBe('The lead was found later.');
	});
});
