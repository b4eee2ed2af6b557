import { Logger } from '@aws-lambda-powertools/logger';

// Structured JSON logs; the HTTP layer and consumers add the request id to every line.
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'notify' });
