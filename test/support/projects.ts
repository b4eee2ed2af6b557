/** The vitest project of the load tests (vitest.config.ts): run last, without the run's stack. */
export const LOAD_PROJECT = 'load';
