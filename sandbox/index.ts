/** Local emulation of the prospecting API for tests, demos and benchmarks (development only, never published). */
export { startSandbox, DEMO_API_KEY } from './server';
export { CONTROL_ENDPOINTS, ControlError } from './control';
export { sign as signWebhookBody } from './deliveries';
export { DEFAULT_DATASET, API_LEAD_ORIGIN } from './dataset';
export { DEFAULT_LIMIT, MAX_LIMIT } from './query';
export type * from './types';
