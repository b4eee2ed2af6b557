import { App } from 'aws-cdk-lib';
import { isServiceLevel, SERVICE_LEVELS } from '../lib/rate-limits/policy.ts';
import { parseAllowedOrigins } from './cors.ts';
import {
  DEFAULT_API_5XX_ALARM_THRESHOLD,
  DEFAULT_DELIVERY_FAILURE_RATE_ALARM_PERCENT,
  DEFAULT_API_THROTTLE,
  DEFAULT_SOCKET_THROTTLE,
  NotifyStack,
  SERVICE_SETTINGS,
  type ServiceSetting,
} from './stack.ts';

// One stack per stage: `cdk deploy -c stage=prod` deploys Notify-prod next to Notify-dev.
// Other settings, all optional, also come from context (`-c key=value` or cdk.json):
//   alarmEmail=ops@example.com   subscribed to the alarm topic
//   socketAccessLogs=true        access logs on the WebSocket stage (needs the account's API Gateway
//                                CloudWatch Logs role first: docs/deploy.md)
//   socketDomainName=ws.example.com socketCertificateArn=arn:aws:acm:…   a custom domain for the WebSocket API,
//                                where the legacy in-app clients' socket.io path works (docs/inbox.md)
//   apiRateLimit=200 apiBurstLimit=400   API Gateway throttling of the default stage
//   socketRateLimit=500 socketBurstLimit=1000   the same for the WebSocket API (inbox sockets)
//   api5xxAlarmThreshold=5       5xx answers per 5 minutes before the API alarm fires
//   deliveryFailureRateAlarmPercent=5   % of channel jobs failing in 5 minutes before the delivery alarm fires
//   activityRetentionDays=30 messageRetentionDays=30 providerTimeoutMs=10000 providerRetryBackoffMs=500
//   inboxMaxSnoozeHours=720 inboxMinSnoozeSeconds=60 apiKeyGraceSeconds=86400 maxDeferDays=180   service settings
//   rateLimitServiceLevel=pro    the reference's API rate limits per environment (free, pro, business,
//                                enterprise, unlimited; default free: docs/deploy.md, "API rate limits")
//   rateLimitTriggerPerSecond=100 rateLimitConfigurationPerSecond=40 rateLimitGlobalPerSecond=50
//                                one category's limit instead of the level's
//   corsOrigins=https://app.example.com,https://admin.example.com   origins allowed to call from a browser (default any)
//   console=false                leave the console (docs/console.md) out: `/` and `/console/` answer 404
//   tableWarmWritesPerSecond=40000 tableWarmReadsPerSecond=12000   pre-warm the on-demand table for
//     large broadcasts (docs/performance.md, "A 1,000,000-subscriber broadcast in AWS")
const app = new App();

/** The WebSocket API's custom domain: both settings or neither. */
function socketDomainContext(): { socketDomain?: { domainName: string; certificateArn: string } } {
  const domainName: unknown = app.node.tryGetContext('socketDomainName');
  const certificateArn: unknown = app.node.tryGetContext('socketCertificateArn');
  if (domainName === undefined && certificateArn === undefined) return {};
  if (
    typeof domainName !== 'string' ||
    !/^[a-z0-9.-]+$/i.test(domainName) ||
    typeof certificateArn !== 'string' ||
    !certificateArn.startsWith('arn:')
  )
    throw new Error('Context socketDomainName and socketCertificateArn go together: a domain name and an ACM certificate ARN');
  return { socketDomain: { domainName, certificateArn } };
}
const stage: unknown = app.node.tryGetContext('stage') ?? 'dev';
if (typeof stage !== 'string' || !/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
  // The stage goes into queue and API names, so keep it short and DNS-safe.
  throw new Error(`Invalid stage ${JSON.stringify(stage)}: use lowercase letters, digits and dashes`);
}

/** A positive number from context (`-c` gives strings, cdk.json may give numbers), else the default. */
function numberContext(key: string, fallback: number): number;
function numberContext(key: string, fallback?: number): number | undefined;
function numberContext(key: string, fallback?: number): number | undefined {
  const raw: unknown = app.node.tryGetContext(key);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`Context ${key} must be a positive number, got ${JSON.stringify(raw)}`);
  return value;
}

const alarmEmail: unknown = app.node.tryGetContext('alarmEmail');
if (alarmEmail !== undefined && (typeof alarmEmail !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(alarmEmail))) {
  throw new Error(`Context alarmEmail must be an email address, got ${JSON.stringify(alarmEmail)}`);
}

/** true or false from context (`-c` gives strings, cdk.json booleans), else the default. */
function booleanContext(key: string, fallback: boolean): boolean {
  const raw: unknown = app.node.tryGetContext(key);
  if (raw === undefined) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`Context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

const corsOrigins: unknown = app.node.tryGetContext('corsOrigins');
if (corsOrigins !== undefined && typeof corsOrigins !== 'string')
  throw new Error('Context corsOrigins must be a comma-separated list of origins');
const corsAllowedOrigins = typeof corsOrigins === 'string' ? parseAllowedOrigins(corsOrigins) : undefined;
for (const origin of corsAllowedOrigins ?? []) {
  if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin))
    throw new Error(`Context corsOrigins: ${JSON.stringify(origin)} is not an origin (scheme://host[:port])`);
}

const rateLimitServiceLevel: unknown = app.node.tryGetContext('rateLimitServiceLevel');
if (rateLimitServiceLevel !== undefined && (typeof rateLimitServiceLevel !== 'string' || !isServiceLevel(rateLimitServiceLevel))) {
  throw new Error(
    `Context rateLimitServiceLevel must be one of ${Object.keys(SERVICE_LEVELS).join(', ')}, got ${JSON.stringify(rateLimitServiceLevel)}`,
  );
}

// Only the settings given: for the others the code's own defaults apply (lib/config.ts).
const settings: Partial<Record<ServiceSetting, number>> = {};
for (const key of Object.keys(SERVICE_SETTINGS) as ServiceSetting[]) {
  const value = numberContext(key);
  if (value !== undefined) settings[key] = value;
}

const warmWrites = numberContext('tableWarmWritesPerSecond');
const warmReads = numberContext('tableWarmReadsPerSecond');

new NotifyStack(app, `Notify-${stage}`, {
  stage,
  apiThrottle: {
    rateLimit: numberContext('apiRateLimit', DEFAULT_API_THROTTLE.rateLimit),
    burstLimit: Math.round(numberContext('apiBurstLimit', DEFAULT_API_THROTTLE.burstLimit)),
  },
  socketThrottle: {
    rateLimit: numberContext('socketRateLimit', DEFAULT_SOCKET_THROTTLE.rateLimit),
    burstLimit: Math.round(numberContext('socketBurstLimit', DEFAULT_SOCKET_THROTTLE.burstLimit)),
  },
  api5xxAlarmThreshold: numberContext('api5xxAlarmThreshold', DEFAULT_API_5XX_ALARM_THRESHOLD),
  deliveryFailureRateAlarmPercent: numberContext('deliveryFailureRateAlarmPercent', DEFAULT_DELIVERY_FAILURE_RATE_ALARM_PERCENT),
  ...(typeof alarmEmail === 'string' && { alarmEmail }),
  socketAccessLogs: booleanContext('socketAccessLogs', false),
  ...socketDomainContext(),
  console: booleanContext('console', true),
  settings,
  ...(typeof rateLimitServiceLevel === 'string' && isServiceLevel(rateLimitServiceLevel) && { rateLimitServiceLevel }),
  ...(corsAllowedOrigins && { corsAllowedOrigins }),
  ...((warmWrites ?? warmReads) !== undefined && {
    tableWarmThroughput: {
      ...(warmWrites && { writeUnitsPerSecond: Math.round(warmWrites) }),
      ...(warmReads && { readUnitsPerSecond: Math.round(warmReads) }),
    },
  }),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
