export * from './request';
export * from './pagination';
export * from './errors';
export { redactText, redactValue } from './secrets';
export * from './account';
export { budgetCount, resetBudgets } from './rateBudget';
