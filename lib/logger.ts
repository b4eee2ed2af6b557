import { Logger } from '@aws-lambda-powertools/logger';
import { ENV, optional } from './config.ts';
import { SERVICE_NAME } from './observability/metric-names.ts';

// Structured JSON logs; the HTTP layer and consumers add the request id to every line.
export const logger = new Logger({ serviceName: optional(ENV.serviceName) ?? SERVICE_NAME });
