export * from './request';
export * from './pagination';
export * from './errors';
export * from './paths';
export * from './dryRun';
export { withKeysHeld } from './keyedLock';
export { redactText, redactValue } from './secrets';
export { resetBudgets, parseResetHeader, parseRetryAfter } from './rateLimiter';
