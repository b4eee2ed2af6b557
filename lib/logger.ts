import { Logger } from '@aws-lambda-powertools/logger';
import { ENV, optional, SERVICE_NAME } from './config.ts';

// Structured JSON logs; the HTTP layer and consumers add the request id to every line.
export const logger = new Logger({ serviceName: optional(ENV.serviceName) ?? SERVICE_NAME });
