import { inject } from 'vitest';

// Every test worker talks to the emulators the global setup started.
Object.assign(process.env, inject('stackEnv'), { POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT' });
