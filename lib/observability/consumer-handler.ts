import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';
import { SERVICE_NAME } from '../config.ts';
import { lazy } from '../lazy.ts';
import { logger } from '../logger.ts';
import { sqs } from '../queue/client.ts';
import { dynamo } from '../store/client.ts';
import { flushMetrics } from './metrics.ts';

// The edge every queue and stream consumer shares: the invocation's request id on every log line,
// an X-Ray subsegment around the invocation (Powertools Tracer: cold start and service
// annotations, the error if it throws), the DynamoDB and SQS clients captured (one subsegment per
// call), HTTP and fetch calls to providers and webhooks captured by Tracer itself; then the
// metrics the invocation recorded are written.
// Tracer is only here, not in the HTTP functions: it carries aws-xray-sdk-core, which would add
// to each of the API's bundles and cold starts (docs/architecture.md, "Metrics and traces");
// those have Lambda's active tracing alone. Tracer (with the X-Ray SDK, a third of a consumer's
// bundle) is loaded by the first invocation Lambda traces (lib/lazy.ts): never outside Lambda
// (local runtime, tests), where this only flushes the metrics.

const tracing = lazy('@aws-lambda-powertools/tracer', async () => {
  const { Tracer } = await import('@aws-lambda-powertools/tracer');
  const tracer = new Tracer({ serviceName: SERVICE_NAME });
  if (tracer.isTracingEnabled()) {
    tracer.captureAWSv3Client(dynamo());
    tracer.captureAWSv3Client(sqs());
  }
  return tracer;
});

/** Lambda's own environment, with a trace to add to: what Tracer itself looks for. */
const traced = () => process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined && process.env._X_AMZN_TRACE_ID !== undefined;

export function consumerHandler<E, R>(
  name: string,
  handler: (event: E, context: Context) => Promise<R>,
): (event: E, context: Context) => Promise<R> {
  return async (event, context) => {
    logger.addContext(context);
    const tracer: Tracer | undefined = traced() ? await tracing.load() : undefined;
    const facade = tracer?.isTracingEnabled() ? tracer.getSegment() : undefined;
    const segment = facade?.addNewSubsegment(`## ${name}`);
    if (tracer && facade && segment) {
      tracer.setSegment(segment);
      tracer.annotateColdStart();
      tracer.addServiceNameAnnotation();
    }
    try {
      return await handler(event, context);
    } catch (error) {
      tracer?.addErrorAsMetadata(error as Error);
      throw error;
    } finally {
      if (tracer && facade && segment) {
        segment.close();
        tracer.setSegment(facade);
      }
      flushMetrics();
    }
  };
}
