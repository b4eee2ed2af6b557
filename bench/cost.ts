import type { EndToEndResult } from './scenarios.ts';
import { table } from './table.ts';

// The cost of one million triggered events (one subscriber each, a one-step in-app workflow,
// bulk requests of 100), from the operations per event the end-to-end run counted and the
// durations it timed. Prices are assumptions (docs/deploy.md says where they come from).

export const PRICES = {
  source:
    'AWS us-east-1 on-demand list prices (pricing pages as of 2025; DynamoDB after its Nov 2024 on-demand reduction), without free tier',
  apiGatewayPerMillionRequests: 1.0,
  lambdaPerMillionInvocations: 0.2,
  lambdaPerGbSecondArm: 0.0000133334,
  dynamoPerMillionWriteUnits: 0.625,
  dynamoPerMillionReadUnits: 0.125,
  sqsPerMillionRequests: 0.4,
  logsPerGbIngested: 0.5,
} as const;

/** Assumed, not measured: the bench runs with logging off. One INFO line per request and per job. */
const LOG_KB_PER_EVENT = 1;
const LAMBDA_MEMORY_GB = 0.5;

export interface CostRow {
  item: string;
  perMillionEvents: string;
  usd: number;
}

export interface CostResult {
  assumptions: string[];
  rows: CostRow[];
  totalUsd: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export function costPerMillionEvents(e2e: EndToEndResult, eventsPerRequest = 100): CostResult {
  const N = 1_000_000;
  const apiRequests = N / eventsPerRequest;
  const consumerInvocations = Object.values(e2e.consumers).reduce((sum, c) => sum + (c.batches / e2e.events) * N, 0);
  const consumerSeconds = Object.values(e2e.consumers).reduce((sum, c) => sum + ((c.batches * c.msPerBatch) / 1000 / e2e.events) * N, 0);
  const apiSeconds = (apiRequests * e2e.apiMsPerRequest) / 1000;
  const gbSeconds = (apiSeconds + consumerSeconds) * LAMBDA_MEMORY_GB;
  const writeUnits = e2e.perDelivery.billedWriteUnits * N;
  const readUnits = e2e.perDelivery.readUnits * N;
  const sqs = e2e.sqsPerDelivery;
  const sqsRequests = (sqs.sendRequests + sqs.receiveRequests + sqs.deleteRequests) * N;
  const logGb = (LOG_KB_PER_EVENT * N) / 1024 / 1024;

  const rows: CostRow[] = [
    {
      item: 'API Gateway',
      perMillionEvents: `${fmt(apiRequests)} requests`,
      usd: (apiRequests / 1e6) * PRICES.apiGatewayPerMillionRequests,
    },
    {
      item: 'Lambda invocations',
      perMillionEvents: `${fmt(apiRequests)} API + ${fmt(consumerInvocations)} consumer`,
      usd: ((apiRequests + consumerInvocations) / 1e6) * PRICES.lambdaPerMillionInvocations,
    },
    {
      item: 'Lambda duration',
      perMillionEvents: `${fmt(gbSeconds)} GB-s (${fmt(apiSeconds + consumerSeconds)} s at 512 MB)`,
      usd: gbSeconds * PRICES.lambdaPerGbSecondArm,
    },
    { item: 'DynamoDB writes', perMillionEvents: `${fmt(writeUnits)} WRU`, usd: (writeUnits / 1e6) * PRICES.dynamoPerMillionWriteUnits },
    { item: 'DynamoDB reads', perMillionEvents: `${fmt(readUnits)} RRU`, usd: (readUnits / 1e6) * PRICES.dynamoPerMillionReadUnits },
    { item: 'SQS', perMillionEvents: `${fmt(sqsRequests)} requests`, usd: (sqsRequests / 1e6) * PRICES.sqsPerMillionRequests },
    { item: 'CloudWatch Logs (assumed 1 KB/event)', perMillionEvents: `${logGb.toFixed(2)} GB`, usd: logGb * PRICES.logsPerGbIngested },
  ];
  return {
    assumptions: [
      PRICES.source,
      `Lambda arm64, ${LAMBDA_MEMORY_GB * 1024} MB; durations are the handlers' times on this machine (a Lambda vCPU share differs)`,
      'transactional writes billed at 2 WRU per KB (DynamoDB Local reports 1)',
      'SQS: sends, non-empty receives and deletes counted; ' +
        "the event source mapping's empty polls are a fixed cost per queue, not per event",
      `logs: ${LOG_KB_PER_EVENT} KB per event assumed (the bench runs with logging off)`,
    ],
    rows,
    totalUsd: rows.reduce((sum, r) => sum + r.usd, 0),
  };
}

export function printCost(c: CostResult): void {
  table(
    'Cost per million triggered events (one subscriber, one in-app step)',
    ['item', 'for 1 M events', 'USD'],
    [...c.rows.map((r) => [r.item, r.perMillionEvents, `$${r.usd.toFixed(2)}`]), ['total', '', `$${c.totalUsd.toFixed(2)}`]],
  );
}
