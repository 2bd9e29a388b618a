/** Error responses in the spec's shapes, with Portuguese messages. */

export interface FieldError {
	field: string;
	message: string;
}

/** Thrown by handlers; the router turns it into the response. */
export class ApiError extends Error {
	constructor(
		public readonly status: number,
		message: string,
		public readonly errors?: FieldError[],
	) {
		super(message);
	}

	body(): Record<string, unknown> {
		return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
	}
}

/** 400 with every field error; the message repeats the first one so clients reading only `message` see it. */
export function validationError(errors: FieldError[]): ApiError {
	const first = errors[0];
	const summary = first ? `: ${first.field}: ${first.message}` : '';
	const more = errors.length > 1 ? ` (e mais ${errors.length - 1} erro${errors.length > 2 ? 's' : ''})` : '';
	return new ApiError(400, `Dados inválidos${summary}${more}`, errors);
}

export const notFound = (what: string): ApiError => new ApiError(404, `${what} não encontrad${what.startsWith('Rotina') || what.startsWith('Prospecção') ? 'a' : 'o'}.`);

export const MESSAGES = {
	missingKey: 'Chave de API ausente. Envie o parâmetro apiKey na URL.',
	invalidKey: 'Chave de API inválida.',
	rateLimited: (seconds: number) =>
		`Limite de requisições excedido. Tente novamente em ${seconds} segundo${seconds === 1 ? '' : 's'}.`,
	serverError: (status: number) =>
		status === 500
			? 'Erro interno do servidor.'
			: status === 502
				? 'Erro temporário de comunicação com o servidor (502).'
				: `Serviço temporariamente indisponível (${status}).`,
	moved: (location?: string) => (location === undefined ? 'Endereço movido.' : `Endereço movido para ${location}.`),
	unknownRoute: (method: string, path: string) => `Rota não encontrada: ${method} ${path}.`,
};
