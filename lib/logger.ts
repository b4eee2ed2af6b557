import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './observability/metric-names.ts';

// Structured JSON logs; the HTTP layer and consumers add the request id to every line.
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME });
