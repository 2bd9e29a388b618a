export * from './request';
export * from './pagination';
export * from './errors';
export { redactText, redactValue } from './secrets';
export { resetBudgets, parseResetHeader, parseRetryAfter } from './rateLimiter';
