/**
 * What a user reads in n8n when activating (or re-activating) the Prospecting Trigger fails: the step that failed,
 * the service's own words (Portuguese) whole, and what to do next. Run through n8n-core's HookContext against the
 * sandbox, as n8n runs activation.
 */
import { outcomeOf } from '../../nodes/Prospecting/helpers/outcome';
import { failureOf, useTriggerService } from './support';

const { sandbox, trigger, remoteFor } = useTriggerService({ rateLimit: false });

/** A long maintenance notice, as the service may word it: well under its 500-character quoting cap, over 300. */
const NOTICE =
	'O serviço de webhooks está em manutenção programada para a migração do banco de dados de notificações. ' +
	'Durante a janela, novos webhooks não podem ser cadastrados nem removidos, e as entregas pendentes ficam ' +
	'retidas na fila até o fim da manutenção. Tente novamente após as 03h00 (horário de Brasília). Em caso de ' +
	'dúvida, consulte a página de status ou fale com o suporte informando o código MNT-2291.';

describe('activation errors', () => {
	it('a create the service fails with a long notice: the user reads the notice whole, after what failed', async () => {
		expect(NOTICE.length).toBeGreaterThan(300);
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['POST'], pathPrefix: '/webhooks', body: JSON.stringify({ message: NOTICE }) });
		const error = await failureOf(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: The service answered 503 to POST \/webhooks: /);
		expect(error.message).toContain(` (${NOTICE}\n`);
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(0);
	});

	it('an empty API key in the credential: activation says so, and nothing is sent', async () => {
		const workflow = trigger({ apiKey: '' });
		const error = await failureOf(workflow.activate());
		expect(error.message).toBe(
			"Could not register the webhook: the service's webhook list could not be read or cleaned up: The API key in the Prospecting API credential is empty",
		);
		expect(error.description).toBe('No webhook was created. Activate the workflow again once the Prospecting API credential is corrected.');
		expect(sandbox.control.requests()).toHaveLength(0);
	});

	it('a Base URL that answers the webhook list with a redirect: nothing sent on, activate again once the credential is corrected', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'redirect', status: 301, location: 'https://novo.example.com/api/v1/webhooks', count: 1, methods: ['GET'] });
		const error = await failureOf(workflow.activate());
		expect(error.message).toMatch(/GET \/webhooks was redirected \(301\)/);
		expect(error.description).toBe('No webhook was created. Activate the workflow again once the Prospecting API credential is corrected.');
		expect(sandbox.control.webhooks()).toHaveLength(0);
	});

	it('a Base URL on a cloud metadata address: nothing is sent, activate again once the credential is corrected', async () => {
		const workflow = trigger({ baseUrl: 'http://169.254.169.254/latest' });
		const error = await failureOf(workflow.activate());
		expect(error.message).toContain('names 169.254.169.254, a link-local or cloud metadata address');
		expect(error.description).toBe('No webhook was created. Activate the workflow again once the Prospecting API credential is corrected.');
	});

	it('a workflow whose credential was deleted: nothing is sent, activate again once the credential is corrected', async () => {
		const workflow = trigger({ withoutCredential: true });
		const error = await failureOf(workflow.activate());
		expect(error.description).toBe('No webhook was created. Activate the workflow again once the Prospecting API credential is corrected.');
		expect(sandbox.control.requests()).toHaveLength(0);
	});

	it('a key the service refuses when re-activating: the service\'s words, nothing changed, the webhook still kept', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());

		const refused = trigger({ apiKey: 'a-key-the-service-never-issued', from: workflow });
		const error = await failureOf(refused.activate());
		expect(error.message).toMatch(/^Could not check the webhook registered with the service: The API key was refused \(401\)/);
		expect(error.message).toContain('(Chave de API inválida.\n');
		expect(error.description).toBe('Nothing was changed. Activate the workflow again once the Prospecting API credential is corrected.');
		expect(remoteFor(workflow.webhookUrl()).map((webhook) => webhook.id)).toEqual([mine.id]);
		expect((refused.nodeStaticData.webhooks as any)[workflow.webhookUrl()].id).toBe(mine.id);
	});

	it('events changed while the service refuses to remove the old webhook: its words, and to activate again', async () => {
		const workflow = trigger();
		await workflow.activate();
		const changed = trigger({ parameters: { events: ['prospection.won'] }, from: workflow });
		sandbox.control.injectFault({ kind: 'status', status: 503, count: 1, methods: ['DELETE'], body: JSON.stringify({ message: 'Remoção de webhooks suspensa durante a manutenção.' }) });
		const error = await failureOf(changed.activate());
		expect(error.message).toMatch(/^Could not replace the webhook registered with the service: /);
		expect(error.message).toContain('(Remoção de webhooks suspensa durante a manutenção.\n');
		expect(error.description).toBe('Activate the workflow again once the service answers.');
		expect(remoteFor(workflow.webhookUrl())).toHaveLength(1);
	});

	it('a deactivation whose credential was deleted sends nothing, fails as not sent, and keeps the webhook for the next activation', async () => {
		const workflow = trigger();
		await workflow.activate();
		const [mine] = remoteFor(workflow.webhookUrl());
		const orphaned = trigger({ withoutCredential: true, from: workflow });
		const requestsBefore = sandbox.control.requests().length;
		const error = await failureOf(orphaned.deactivate());
		expect(error.message).toMatch(new RegExp(`^Could not remove webhook ${mine.id} from the service: `));
		expect(outcomeOf(error)).toBe('notSent');
		expect(sandbox.control.requests()).toHaveLength(requestsBefore);
		expect(remoteFor(workflow.webhookUrl()).map((webhook) => webhook.id)).toEqual([mine.id]);
	});

	it('a create the service refused (a redirect): the description says only that nothing is left, no late webhook', async () => {
		const workflow = trigger();
		sandbox.control.injectFault({ kind: 'redirect', status: 308, location: 'https://novo.example.com/api/v1/webhooks', count: 1, methods: ['POST'] });
		const error = await failureOf(workflow.activate());
		expect(error.message).toMatch(/^Could not register the webhook with the service: POST \/webhooks was redirected \(308\)/);
		expect(error.description).toBe('No webhook was left registered for this URL. Activate the workflow again.');
		expect(sandbox.control.webhooks()).toHaveLength(0);
	});
});
