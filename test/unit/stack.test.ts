import { describe, it, expect } from 'vitest';
import type { NestedStack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import {
  accessOf,
  consumerTimeoutSeconds,
  DEFAULT_API_THROTTLE,
  DEFAULT_DELIVERY_FAILURE_RATE_ALARM_PERCENT,
  DEFAULT_SOCKET_THROTTLE,
  MIN_MAX_RECEIVE_COUNT,
  STREAM_RETRY_ATTEMPTS,
  NotifyStack,
  VISIBILITY_PER_CONSUMER_TIMEOUT,
  type NotifyStackProps,
} from '#infra/stack.ts';
import { HttpRoutes } from '#infra/constructs/http-routes.ts';
import { FAILURE_RATE_MIN_JOBS } from '#infra/constructs/service-metrics.ts';
import { KMS_READ_ACTIONS, TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS, TRACING_ACTIONS } from '#infra/constructs/access.ts';
import { queues } from '#infra/queues.ts';
import { streamConsumers } from '#infra/streams.ts';
import { routeParts, routes } from '#infra/routes.ts';
import { consoleRoute } from '#infra/routes/console.ts';
import { fallbackRoute } from '#infra/routes/fallback.ts';
import { CONSOLE_ASSET_DIR, ConsoleRoutes } from '#infra/constructs/console-routes.ts';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Stack } from 'aws-cdk-lib';
import { socketAuthorizer, socketRoutes } from '#infra/ws-routes.ts';
import type { RouteDef } from '#lib/http/route.ts';
import { TABLE } from '#lib/store/table.ts';
import { answerWaitMs } from '#lib/bridge/outbound-ask.ts';
import { pascalCase } from '#infra/names.ts';
import { synthApp } from '../support/synth-app.ts';

// One app per synth (an app synthesizes once).
const synthStack = (stage: string, props: Partial<NotifyStackProps> = {}) =>
  new NotifyStack(synthApp(), `Notify-${stage}`, { stage, ...props });
const synth = (stage: string, props: Partial<NotifyStackProps> = {}) => Template.fromStack(synthStack(stage, props));

/**
 * A nested stack's template, with the values the parent passes it put in place of its
 * parameters, so its statements and references name the parent's table, key, roles and API as
 * the parent's own do.
 */
function nestedTemplate(parent: NotifyStack, parentTemplate: Template, nested: NestedStack): { resourceId: string; template: Template } {
  const json = Template.fromStack(nested).toJSON();
  const resourceId = parent.getLogicalId(nested.nestedStackResource!);
  const nestedResource = parentTemplate.toJSON().Resources[resourceId] as {
    Type: string;
    Properties: { Parameters?: Record<string, unknown> };
  };
  if (nestedResource?.Type !== 'AWS::CloudFormation::Stack') throw new Error(`No nested stack resource ${resourceId} in the parent`);
  const values = nestedResource.Properties.Parameters ?? {};
  const put = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(put);
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { Ref?: string }).Ref;
    if (ref !== undefined && ref in values) return values[ref];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, put(v)]));
  };
  return { resourceId, template: Template.fromJSON({ ...json, Resources: put(json.Resources) as Record<string, unknown> }) };
}

/**
 * The parent's template and every nested stack's (the sockets', and one per part of the route
 * table), read as one set of resources: their logical ids must not collide.
 */
function stackTemplates(parent: NotifyStack) {
  const template = Template.fromStack(parent);
  const nested = new Map(
    parent.nestedStacks.map((n) => {
      const { resourceId, template: t } = nestedTemplate(parent, template, n);
      return [resourceId, { stack: n, template: t }] as const;
    }),
  );
  const all = [template, ...[...nested.values()].map((n) => n.template)];
  const seen = new Set<string>();
  for (const t of all) {
    for (const id of Object.keys(t.toJSON().Resources)) {
      if (seen.has(id)) throw new Error(`Logical id ${id} is in more than one of the stack and its nested stacks`);
      seen.add(id);
    }
  }
  /** Resources of a type in the stack and all its nested stacks. */
  const resources = (type: string) => Object.assign({}, ...all.map((t) => t.findResources(type))) as Record<string, Resource>;
  return { template, nested, all, resources };
}

const stack = synthStack('test', { alarmEmail: 'ops@example.com' });
const { template, nested, all: allTemplates, resources } = stackTemplates(stack);
const socketsTemplate = [...nested.values()].find((n) => n.stack === stack.sockets)!.template;

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const routeTable = routes as readonly RouteDef[];
const consumers = queues.filter((q) => q.consumer);

/** What a parent value `Fn::GetAtt [<nested stack>, Outputs.X]` is in that nested stack (its output X). */
function nestedOutput(value: any): unknown {
  const [resourceId, attribute] = value?.['Fn::GetAtt'] ?? [];
  if (typeof attribute !== 'string' || !attribute.startsWith('Outputs.')) return undefined;
  const outputs = nested.get(resourceId)?.template.toJSON().Outputs as Record<string, { Value: unknown }> | undefined;
  return outputs?.[attribute.slice('Outputs.'.length)]?.Value;
}
const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

const functions = resources('AWS::Lambda::Function');
const policies = resources('AWS::IAM::Policy');

/** Logical id of a `{ "Fn::GetAtt": [id, "Arn"] }` or `{ Ref: id }`. */
const refId = (value: any): string => value?.Ref ?? value?.['Fn::GetAtt']?.[0];

/** The statements of the role of a function (its inline policies). */
function statementsOf(functionId: string): Statement[] {
  const roleId = refId(functions[functionId]!.Properties.Role);
  return Object.values(policies)
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => refId(r) === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const tracing = new Set<string>(TRACING_ACTIONS);
/** What a function may do besides writing its own logs and traces (which every function may: checked on their own). */
const actionsOf = (functionId: string) =>
  new Set(
    statementsOf(functionId)
      .flatMap((s) => asList(s.Action))
      .filter((a) => !a.startsWith('logs:') && !tracing.has(a)),
  );

/**
 * The function an integration or authorizer URI invokes: the function's ARN (HTTP API), or the
 * `arn:…:lambda:path/…/functions/<arn>/invocations` URI built with Fn::Join (WebSocket API).
 */
function functionOfUri(uri: any): string {
  if (!uri?.['Fn::Join']) return refId(uri);
  return refId((uri['Fn::Join'][1] as unknown[]).find((part: any) => part?.['Fn::GetAtt']));
}

/** Logical id of the API of a protocol (`HTTP` or `WEBSOCKET`). */
const apiId = (protocol: string): string => {
  const found = Object.entries(resources('AWS::ApiGatewayV2::Api')).filter(([, api]) => api.Properties.ProtocolType === protocol);
  expect(found).toHaveLength(1);
  return found[0]![0];
};

/** Route key ("GET /v2/topics", "$connect") → logical id of the function behind it, for one API. */
function routeFunctions(protocol = 'HTTP'): Map<string, string> {
  const integrations = resources('AWS::ApiGatewayV2::Integration');
  const byKey = new Map<string, string>();
  const id = apiId(protocol);
  for (const route of Object.values(resources('AWS::ApiGatewayV2::Route'))) {
    if (refId(route.Properties.ApiId) !== id) continue;
    // Target: { "Fn::Join": ["", ["integrations/", { Ref: integrationId }]] }
    const integrationId = refId(route.Properties.Target['Fn::Join'][1][1]);
    const integration = integrations[integrationId]!;
    expect(byKey.has(route.Properties.RouteKey)).toBe(false);
    byKey.set(route.Properties.RouteKey, functionOfUri(integration.Properties.IntegrationUri));
  }
  return byKey;
}

/** The socket functions: each route key's, and `authorizer` → the $connect authorizer's. */
function socketFunctions(): Map<string, string> {
  const fns = routeFunctions('WEBSOCKET');
  const authorizer = Object.values(resources('AWS::ApiGatewayV2::Authorizer'))[0]!;
  fns.set('authorizer', functionOfUri(authorizer.Properties.AuthorizerUri));
  return fns;
}

/** The function consuming a queue. */
function consumerFunction(queueName: string): string {
  const queueId = Object.entries(resources('AWS::SQS::Queue')).find(([, q]) => q.Properties.QueueName === `notify-test-${queueName}`)![0];
  const mapping = Object.values(resources('AWS::Lambda::EventSourceMapping')).find((m) => refId(m.Properties.EventSourceArn) === queueId)!;
  return refId(mapping.Properties.FunctionName);
}

describe('NotifyStack', () => {
  it('has one table with the keys, indexes and TTL of TABLE, on demand, with PITR', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection:
          index.projection === 'ALL' ? { ProjectionType: 'ALL' } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] },
      })),
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('gives every route of the route table its API route and its own function, and nothing else', () => {
    const byKey = routeFunctions();
    // What no route serves goes to `$default` (infra/routes/fallback.ts), a function of its own.
    const fallbackFn = byKey.get('$default')!;
    expect(fallbackFn.startsWith(pascalCase(fallbackRoute.operationId))).toBe(true);
    byKey.delete('$default');
    // The console's paths (infra/routes/console.ts) share one function of their own.
    const consoleFns = new Set(consoleRoute.paths.map((p) => byKey.get(`GET ${p}`)));
    expect(consoleFns.size).toBe(1);
    const [consoleFn] = consoleFns;
    expect(consoleFn!.startsWith(pascalCase(consoleRoute.operationId))).toBe(true);
    for (const p of consoleRoute.paths) byKey.delete(`GET ${p}`);
    expect([...byKey.keys()].sort()).toEqual(routeTable.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of routeTable) {
      const fnId = byKey.get(`${route.method} ${route.path}`)!;
      expect(fnId.startsWith(pascalCase(route.operationId))).toBe(true);
      expect(functions[fnId]).toBeDefined();
    }
    const routeFns = new Set(byKey.values());
    expect(routeFns.size).toBe(routeTable.length); // one function per route, none shared

    // Every other function consumes a queue or serves the sockets (or is a CDK-internal
    // singleton; there are none today).
    const consumerFns = new Set(Object.values(resources('AWS::Lambda::EventSourceMapping')).map((m) => refId(m.Properties.FunctionName)));
    const socketFns = new Set([...socketFunctions().values()]);
    const cdkInternal = /^(AWS[0-9a-f]{32}|LogRetention[0-9a-f]{32}|Custom[A-Za-z]+Provider)/;
    const others = Object.keys(functions).filter(
      (id) =>
        id !== fallbackFn && id !== consoleFn && !routeFns.has(id) && !consumerFns.has(id) && !socketFns.has(id) && !cdkInternal.test(id),
    );
    expect(others).toEqual([]);
    expect(consumerFns.size).toBe(consumers.length + streamConsumers.length);
    expect(Object.keys(resources('AWS::ApiGatewayV2::Api'))).toHaveLength(2);
  });

  it('puts each part of the route table in a nested stack of its own: its functions, routes, integrations and permissions', () => {
    const byKey = routeFunctions();
    const routeStacks = [...nested.values()].flatMap(({ stack: s, template: t }) =>
      s instanceof HttpRoutes ? [{ routeStack: s, template: t }] : [],
    );
    expect(routeStacks.map((n) => n.routeStack)).toEqual(stack.routeStacks);
    expect(stack.routeStacks.map((n) => n.part)).toEqual(Object.keys(routeParts));
    // The flat table is the parts', in their order (the local runtime and the stack read the same).
    expect(routeTable).toEqual(Object.values(routeParts).flat());
    for (const { routeStack, template: t } of routeStacks) {
      const part = routeStack.part as keyof typeof routeParts;
      const partRoutes = routeParts[part] as readonly RouteDef[];
      expect(routeStack.routes).toBe(partRoutes);
      const own = (type: string) => t.findResources(type) as Record<string, Resource>;
      // Its API routes are exactly its part's, on the parent's HTTP API.
      const apiRoutes = Object.values(own('AWS::ApiGatewayV2::Route'));
      expect(apiRoutes.map((r) => r.Properties.RouteKey).sort(), part).toEqual(partRoutes.map((r) => `${r.method} ${r.path}`).sort());
      for (const r of apiRoutes) expect(refId(r.Properties.ApiId)).toBe(apiId('HTTP'));
      // Each route's function, its log group, its integration and its invoke permission are here too.
      const fnIds = partRoutes.map((r) => byKey.get(`${r.method} ${r.path}`)!);
      expect(Object.keys(own('AWS::Lambda::Function')).sort(), part).toEqual([...fnIds].sort());
      expect(Object.keys(own('AWS::Logs::LogGroup'))).toHaveLength(partRoutes.length);
      const integrations = Object.values(own('AWS::ApiGatewayV2::Integration'));
      expect(integrations.map((i) => functionOfUri(i.Properties.IntegrationUri)).sort()).toEqual([...fnIds].sort());
      const permissions = Object.values(own('AWS::Lambda::Permission'));
      expect(permissions.map((p) => refId(p.Properties.FunctionName)).sort()).toEqual([...fnIds].sort());
      for (const p of permissions) expect(p.Properties.Principal).toBe('apigateway.amazonaws.com');
      // Nothing else: the roles, the API and its stage stay in the parent.
      expect(Object.keys(t.toJSON().Resources)).toHaveLength(5 * partRoutes.length);
    }
    // The parent holds only the `$default` route and the console's, their two integrations and an
    // invoke permission per route.
    const parentRoutes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(parentRoutes.sort()).toEqual(['$default', ...consoleRoute.paths.map((p) => `GET ${p}`)].sort());
    template.resourceCountIs('AWS::ApiGatewayV2::Integration', 2);
    template.resourceCountIs('AWS::Lambda::Permission', 1 + consoleRoute.paths.length);
  });

  it('serves the socket route table on a WebSocket API, each route with its own function, $connect behind the token authorizer', () => {
    const byKey = routeFunctions('WEBSOCKET');
    expect([...byKey.keys()].sort()).toEqual(socketRoutes.map((r) => r.routeKey).sort());
    for (const route of socketRoutes) expect(byKey.get(route.routeKey)!.startsWith(pascalCase(route.operationId))).toBe(true);
    expect(new Set(byKey.values()).size).toBe(socketRoutes.length);

    const wsRoutes = Object.values(resources('AWS::ApiGatewayV2::Route')).filter((r) => refId(r.Properties.ApiId) === apiId('WEBSOCKET'));
    const routeOf = (key: string) => wsRoutes.find((r) => r.Properties.RouteKey === key)!;
    const authorizers = Object.entries(resources('AWS::ApiGatewayV2::Authorizer'));
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0]!;
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      // None: a socket.io connection may come without `?token=`; the authorizer answers 401 itself.
      IdentitySource: [],
    });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${socketFunctions().get('authorizer')}"`);
    expect(routeOf('$connect').Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
    for (const key of ['$disconnect', '$default']) expect(routeOf(key).Properties.AuthorizationType).toBe('NONE');
    // $default answers `pong` on the socket: a route response, and only there.
    expect(routeOf('$default').Properties.RouteResponseSelectionExpression).toBe('$default');
    const responses = Object.values(resources('AWS::ApiGatewayV2::RouteResponse'));
    expect(responses.map((r) => refId(r.Properties.RouteId))).toEqual([
      Object.entries(resources('AWS::ApiGatewayV2::Route')).find(([, r]) => r === routeOf('$default'))![0],
    ]);
    // API Gateway may invoke the authorizer.
    const permissions = Object.values(resources('AWS::Lambda::Permission')).filter(
      (p) => refId(p.Properties.FunctionName) === socketFunctions().get('authorizer'),
    );
    expect(permissions.map((p) => p.Properties.Principal)).toEqual(['apigateway.amazonaws.com']);

    // In a nested stack of their own, next to the route table's parts.
    template.resourceCountIs('AWS::CloudFormation::Stack', 1 + Object.keys(routeParts).length);
    socketsTemplate.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: apiId('WEBSOCKET') },
      StageName: 'test',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_SOCKET_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_SOCKET_THROTTLE.burstLimit,
      },
    });
  });

  it('lets only the live consumer post to sockets: PostToConnection on the stage, with its callback URL', () => {
    const liveFn = consumerFunction('live');
    for (const id of Object.keys(functions)) {
      const posts = statementsOf(id).filter((s) => asList(s.Action).some((a) => a.startsWith('execute-api:')));
      const env = functions[id]!.Properties.Environment.Variables as Record<string, unknown>;
      if (id !== liveFn) {
        expect(posts, id).toEqual([]);
        expect(env, id).not.toHaveProperty('LIVE_CALLBACK_URL');
        continue;
      }
      expect(posts).toHaveLength(1);
      expect(posts[0]!.Action).toBe('execute-api:ManageConnections');
      // A policy of the sockets' nested stack on the consumer's role: the API's id is its own.
      const [arnApi, arnRest] = (posts[0]!.Resource as any)['Fn::Join'][1].slice(-2);
      expect(arnApi).toEqual({ Ref: apiId('WEBSOCKET') });
      expect(arnRest).toBe('/test/POST/@connections/*');
      const callback = (env.LIVE_CALLBACK_URL as any)['Fn::Join'][1];
      expect(callback[0]).toBe('https://');
      expect(nestedOutput(callback[1])).toEqual({ Ref: apiId('WEBSOCKET') });
      expect(callback.at(-1)).toBe('/test');
    }
  });

  it('maps the WebSocket stage on /socket.io of a custom domain when the stage names one (the legacy socket.io clients)', () => {
    expect(Object.keys(resources('AWS::ApiGatewayV2::ApiMapping'))).toEqual([]);
    const parent = synthStack('socket-domain', {
      socketDomain: { domainName: 'ws.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' },
    });
    const sockets = Template.fromStack(parent.sockets);
    sockets.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'ws.example.com',
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' })],
    });
    sockets.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { ApiMappingKey: 'socket.io' });
    expect(Object.keys(Template.fromStack(parent).toJSON().Outputs)).toContain('SocketDomainTarget');
  });

  it('gives the socket functions the data access their table entries name', () => {
    const fns = socketFunctions();
    const reads = new Set<string>([...TABLE_READ_ACTIONS, ...KMS_READ_ACTIONS]);
    const check = (fnId: string, access: string, name: string) => {
      const actions = [...actionsOf(fnId)];
      if (access === 'none') expect(actions, name).toEqual([]);
      else if (access === 'read') {
        for (const action of actions) expect(reads.has(action), `${name}: ${action}`).toBe(true);
        expect(actions, name).toContain('dynamodb:GetItem'); // the session signing key
      } else for (const action of [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS]) expect(actions, name).toContain(action);
    };
    check(fns.get('authorizer')!, socketAuthorizer.access, socketAuthorizer.operationId);
    for (const route of socketRoutes) check(fns.get(route.routeKey)!, route.access, route.operationId);
    expect(socketAuthorizer.access).toBe('read');
  });

  it('lets browsers call the HTTP API: CORS with the inbox client headers, origins per stage', () => {
    const apis = Object.values(resources('AWS::ApiGatewayV2::Api')).filter((a) => a.Properties.ProtocolType === 'HTTP');
    expect(apis).toHaveLength(1);
    expect(apis[0]!.Properties.CorsConfiguration).toMatchObject({
      AllowOrigins: ['*'],
      AllowHeaders: expect.arrayContaining([
        'Authorization',
        'Content-Type',
        'Novu-API-Version',
        'Novu-Client-Version',
        'Novu-Application-Identifier',
      ]),
      AllowMethods: expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS']),
    });
    const restricted = synth('cors', { corsAllowedOrigins: ['https://app.example.com'] });
    const api = Object.values(restricted.findResources('AWS::ApiGatewayV2::Api')).find((a) => a.Properties.ProtocolType === 'HTTP')!;
    expect(api.Properties.CorsConfiguration.AllowOrigins).toEqual(['https://app.example.com']);
  });

  it('runs every function on arm64 Node 24 with the table and key settings', () => {
    for (const fn of Object.values(functions)) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], MemorySize: 512 });
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'SECRETS_KMS_KEY_ID']));
    }
  });

  it('gives functions of the same grants one role, in the parent', () => {
    // A consumer that pushes to the sockets has a role of its own: its grant is not the others'.
    const profiles = new Set([
      ...routeTable.map((r) => `${accessOf(r)}:${[...new Set(r.sends ?? [])].sort().join(',')}`),
      ...consumers.map((q) => `write:${[...new Set(q.sends ?? [])].sort().join(',')}${q.pushesToSockets ? ':sockets' : ''}`),
      ...streamConsumers.map((c) => `${c.access ?? 'read'}:${[...new Set(c.sends)].sort().join(',')}`),
    ]);
    // And the role EventBridge Scheduler assumes to send long waits' wakes.
    template.resourceCountIs('AWS::IAM::Role', profiles.size + 1);
    expect(Object.keys(resources('AWS::IAM::Role'))).toHaveLength(profiles.size + 1);
  });

  it(
    'schedules long waits with EventBridge Scheduler: a group, a role that may ' +
      'only send to the jobs queue, and scheduling for the functions that queue jobs',
    () => {
      template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'notify-test-waits' });
      const jobsQueueId = Object.entries(resources('AWS::SQS::Queue')).find(([, q]) => q.Properties.QueueName === 'notify-test-jobs')![0];
      const [roleId, role] = Object.entries(resources('AWS::IAM::Role')).find(([, r]) =>
        JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'),
      )!;
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        expect.objectContaining({
          Principal: { Service: 'scheduler.amazonaws.com' },
          Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
        }),
      ]);
      const roleStatements = Object.values(policies)
        .filter((p) => (p.Properties.Roles as unknown[]).some((r) => refId(r) === roleId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
      expect(roleStatements).toEqual([
        expect.objectContaining({ Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [jobsQueueId, 'Arn'] } }),
      ]);

      const schedulers = Object.keys(functions).filter((id) => actionsOf(id).has('scheduler:CreateSchedule'));
      const queuesJobs = Object.keys(functions).filter(
        (id) =>
          actionsOf(id).has('sqs:SendMessage') &&
          statementsOf(id).some((s) => s.Action === 'sqs:SendMessage' && JSON.stringify(s.Resource).includes(jobsQueueId)),
      );
      expect(schedulers.sort()).toEqual(queuesJobs.sort());
      expect(schedulers).toEqual(expect.arrayContaining([consumerFunction('jobs'), consumerFunction('events')]));
      for (const id of schedulers) {
        expect(statementsOf(id)).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              Action: 'iam:PassRole',
              Resource: { 'Fn::GetAtt': [roleId, 'Arn'] },
              Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
            }),
          ]),
        );
        // Nothing deletes or changes a schedule: each is deleted by Scheduler once it has fired.
        expect([...actionsOf(id)].filter((a) => a.startsWith('scheduler:'))).toEqual(['scheduler:CreateSchedule']);
        expect(functions[id]!.Properties.Environment.Variables).toMatchObject({
          WAKE_SCHEDULE_GROUP: { Ref: expect.any(String) },
          WAKE_SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [roleId, 'Arn'] },
          JOBS_QUEUE_ARN: { 'Fn::GetAtt': [jobsQueueId, 'Arn'] },
        });
      }
      for (const id of Object.keys(functions).filter((f) => !schedulers.includes(f))) {
        expect(functions[id]!.Properties.Environment.Variables.WAKE_SCHEDULE_GROUP).toBeUndefined();
        expect(statementsOf(id).some((s) => s.Action === 'iam:PassRole')).toBe(false);
      }
    },
  );

  it('keeps every stack, the parent and each nested one, well under 500 resources', () => {
    // CloudFormation refuses a stack of more than 500 resources, at deploy time, for the whole
    // stage. Each route costs five in its part's stack (function, log group, integration,
    // permission, route): 400 leaves a part room for 20 more routes before a deploy would fail,
    // so a part that grows this far is split (a file of its own in infra/routes/) first.
    const MAX_RESOURCES_PER_STACK = 400;
    expect(allTemplates).toHaveLength(1 + stack.nestedStacks.length);
    for (const t of allTemplates) expect(Object.keys(t.toJSON().Resources).length).toBeLessThanOrEqual(MAX_RESOURCES_PER_STACK);
  });

  it('has no IAM statement with a wildcard action or a wildcard resource', () => {
    const all = [
      ...Object.values(policies).flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]),
      ...Object.values(resources('AWS::IAM::Role')).flatMap((r) =>
        ((r.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap((p) => p.PolicyDocument.Statement),
      ),
    ];
    expect(all.length).toBeGreaterThan(0);
    for (const statement of all) {
      for (const action of asList(statement.Action)) expect(action).not.toMatch(/\*/);
      // Three exceptions: PostToConnection names the connection, which no one knows before it
      // opens; the functions' logs go to this stage's log groups, whose names CloudFormation
      // generates from the stack's; X-Ray's write actions support no resource at all; and a long
      // wait's schedule is named when it is made, in the stage's group (all acknowledged to
      // cdk-nag, test/unit/nag.test.ts).
      const perConnection = asList(statement.Action).every((a) => a === 'execute-api:ManageConnections');
      const logging = asList(statement.Action).every((a) => a === 'logs:CreateLogStream' || a === 'logs:PutLogEvents');
      const scheduling = asList(statement.Action).every((a) => a === 'scheduler:CreateSchedule');
      if (asList(statement.Action).every((a) => tracing.has(a))) {
        expect(statement.Resource).toBe('*');
        continue;
      }
      for (const resource of asList(statement.Resource)) {
        const text = JSON.stringify(resource);
        if (logging) expect(text).toMatch(/:log-group:Notify-test-\*"\]\]\}$/);
        if (scheduling) expect(text).toMatch(/:schedule\/notify-test-waits\/\*"\]\]\}$/);
        const named = perConnection
          ? text.replace(/\/POST\/@connections\/\*"/, '"')
          : logging
            ? text.replace(/:log-group:Notify-test-\*"/, '"')
            : scheduling
              ? text.replace(/\/\*"/, '"')
              : text;
        expect(named).not.toMatch(/\*/);
      }
    }
    expect(JSON.stringify(policies)).not.toContain('dynamodb:Scan');
  });

  it('names the table and its indexes in every table statement', () => {
    const tableId = Object.keys(resources('AWS::DynamoDB::GlobalTable'))[0]!;
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const allowed = [
      JSON.stringify(tableArn),
      // The stream consumers read the table's stream (DescribeStream, GetRecords, ...).
      JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] }),
      ...TABLE.indexes.map((index) => JSON.stringify({ 'Fn::Join': ['', [tableArn, `/index/${index.name}`]] })),
    ];
    for (const policy of Object.values(policies)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        if (!asList(statement.Action).some((a) => a.startsWith('dynamodb:'))) continue;
        for (const resource of asList(statement.Resource)) expect(allowed).toContain(JSON.stringify(resource));
      }
    }
  });

  const COUNTING_GETS: readonly string[] = ['followTrackedLink', 'loadOpenPixel'];

  it('lets GET functions only read (but the two that count an engagement), writers write, and data-free routes touch nothing', () => {
    const byKey = routeFunctions();
    const reads = new Set<string>([...TABLE_READ_ACTIONS, ...KMS_READ_ACTIONS]);
    for (const route of routeTable) {
      const fnId = byKey.get(`${route.method} ${route.path}`)!;
      const actions = actionsOf(fnId);
      const access = accessOf(route);
      // The tracked link and the open pixel are GETs by nature (a mail client or browser follows
      // them) and each records what it counts (docs/engagement.md): the only GETs that write.
      if (route.method === 'GET' && !COUNTING_GETS.includes(route.operationId)) expect(access).not.toBe('write');
      if (access === 'none') {
        expect([...actions].filter((a) => !a.startsWith('sqs:'))).toEqual([]);
      } else if (access === 'read') {
        for (const action of actions)
          if (!action.startsWith('sqs:')) expect(reads.has(action), `${route.operationId}: ${action}`).toBe(true);
        expect(actions).toContain('dynamodb:GetItem'); // the API key lookup
      } else {
        for (const action of [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS, 'kms:GenerateDataKey', 'kms:Decrypt']) {
          expect(actions, route.operationId).toContain(action);
        }
      }
    }
  });

  it('grants sqs:SendMessage and queue URLs only to functions that send to the queue', () => {
    const byKey = routeFunctions();
    for (const route of routeTable) {
      const fnId = byKey.get(`${route.method} ${route.path}`)!;
      const sends = route.sends ?? [];
      const sendStatements = statementsOf(fnId).filter((s) => asList(s.Action).includes('sqs:SendMessage'));
      expect(sendStatements.flatMap((s) => asList(s.Resource)).length, route.operationId).toBe(sends.length);
      const env = functions[fnId]!.Properties.Environment.Variables as Record<string, unknown>;
      for (const q of queues) expect(q.urlEnv in env, `${route.operationId} ${q.urlEnv}`).toBe(sends.includes(q.name));
    }
  });

  it("gives the routes that wait for an outbound call's answer time for the wait, inside API Gateway's 29 s", () => {
    const byKey = routeFunctions();
    const waitSeconds = answerWaitMs() / 1000;
    for (const route of routeTable) {
      const timeout = functions[byKey.get(`${route.method} ${route.path}`)!]!.Properties.Timeout as number;
      if (route.sends?.includes('outbound')) {
        expect(timeout, route.operationId).toBeGreaterThan(waitSeconds + 2);
        expect(timeout, route.operationId).toBeLessThan(29);
      } else expect(timeout, route.operationId).toBe(10);
    }
    // The consumer that makes the call outlasts the wait: the waiter gives up first.
    expect(consumerTimeoutSeconds(queues.find((q) => q.name === 'outbound')!)).toBeGreaterThanOrEqual(waitSeconds);
  });

  it('gives each queue a dead-letter queue, maxReceiveCount >= 5 and visibility >= 6x its consumer timeout', () => {
    // Each queue and its dead-letter queue, and each stream consumer's on-failure queue.
    template.resourceCountIs('AWS::SQS::Queue', queues.length * 2 + streamConsumers.length);
    const all = Object.values(resources('AWS::SQS::Queue'));
    for (const q of queues) {
      expect(q.maxReceiveCount).toBeGreaterThanOrEqual(MIN_MAX_RECEIVE_COUNT);
      expect(consumerTimeoutSeconds(q) * VISIBILITY_PER_CONSUMER_TIMEOUT).toBeLessThanOrEqual(q.visibilityTimeoutSeconds);
      const source = all.find((r) => r.Properties.QueueName === `notify-test-${q.name}`)!;
      const dlq = Object.entries(resources('AWS::SQS::Queue')).find(([, r]) => r.Properties.QueueName === `notify-test-${q.name}-dlq`)!;
      expect(source.Properties).toMatchObject({
        VisibilityTimeout: q.visibilityTimeoutSeconds,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq[0], 'Arn'] }, maxReceiveCount: q.maxReceiveCount },
      });
      expect(dlq[1].Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    }
    // Consumers as deployed: the function timeout times six fits in the queue's visibility timeout.
    const mappings = Object.values(resources('AWS::Lambda::EventSourceMapping')).filter((m) => !m.Properties.StartingPosition);
    expect(mappings.length).toBe(consumers.length);
    for (const mapping of mappings) {
      expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      const queueId = refId(mapping.Properties.EventSourceArn);
      const visibility = resources('AWS::SQS::Queue')[queueId]!.Properties.VisibilityTimeout as number;
      const timeout = functions[refId(mapping.Properties.FunctionName)]!.Properties.Timeout as number;
      expect(timeout * VISIBILITY_PER_CONSUMER_TIMEOUT).toBeLessThanOrEqual(visibility);
    }
  });

  it(
    'streams the table (new and old images) to each stream consumer, woken ' +
      'only for the items of its filter, with retries and an on-failure queue',
    () => {
      const tableId = Object.keys(resources('AWS::DynamoDB::GlobalTable'))[0]!;
      expect(resources('AWS::DynamoDB::GlobalTable')[tableId]!.Properties.StreamSpecification).toEqual({
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      });
      const mappings = Object.values(resources('AWS::Lambda::EventSourceMapping')).filter((m) => m.Properties.StartingPosition);
      expect(mappings).toHaveLength(streamConsumers.length);
      for (const def of streamConsumers) {
        const mapping = mappings.find((m) => refId(m.Properties.FunctionName).startsWith(pascalCase(def.name)))!;
        expect(mapping.Properties).toMatchObject({
          EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
          StartingPosition: 'TRIM_HORIZON',
          BatchSize: def.batchSize,
          BisectBatchOnFunctionError: true,
          MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        });
        const patterns = (mapping.Properties.FilterCriteria.Filters as { Pattern: string }[]).map((f) => JSON.parse(f.Pattern));
        expect(patterns).toEqual(
          def.filters.map((f) => ({ dynamodb: { Keys: { sk: { S: [f.prefix !== undefined ? { prefix: f.prefix } : f.equals] } } } })),
        );
        const dlqId = refId(mapping.Properties.DestinationConfig.OnFailure.Destination);
        expect(resources('AWS::SQS::Queue')[dlqId]!.Properties.QueueName).toBe(`notify-test-${def.name}-stream-dlq`);
      }
    },
  );

  it('refuses a queue whose visibility timeout is too short for its consumer', () => {
    expect(() =>
      consumerTimeoutSeconds({ name: 'x', urlEnv: 'X', visibilityTimeoutSeconds: 20, maxReceiveCount: 5, batchSize: 1 }),
    ).toThrow(/6x/);
  });

  it('throttles the API on its default stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_API_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_API_THROTTLE.burstLimit,
      },
    });
  });

  it('keeps one log group per function and one for the HTTP API stage (its access log), each with a retention', () => {
    const groups = resources('AWS::Logs::LogGroup');
    expect(Object.keys(groups).length).toBe(Object.keys(functions).length + 1);
    for (const group of Object.values(groups)) expect(group.Properties.RetentionInDays).toBe(30);
    for (const fn of Object.values(functions)) expect(groups[refId(fn.Properties.LoggingConfig.LogGroup)]).toBeDefined();
    // The HTTP API's default stage logs every request; the sockets' stage only when the stage
    // opts in (it needs the account's API Gateway CloudWatch role, which a fresh account lacks).
    const stages = Object.values(resources('AWS::ApiGatewayV2::Stage'));
    expect(stages).toHaveLength(2);
    const logged = stages.filter((stage) => stage.Properties.AccessLogSettings);
    expect(logged.map((stage) => stage.Properties.StageName)).toEqual(['$default']);
    const { DestinationArn, Format } = logged[0]!.Properties.AccessLogSettings;
    expect(groups[refId(DestinationArn)]).toBeDefined();
    expect(Format).toContain('$context.requestId');
  });

  it('logs the sockets stage too when the stage sets socketAccessLogs', () => {
    const s = stackTemplates(synthStack('test', { socketAccessLogs: true }));
    const groups = s.resources('AWS::Logs::LogGroup');
    const stages = Object.values(s.resources('AWS::ApiGatewayV2::Stage'));
    expect(stages.filter((stage) => stage.Properties.AccessLogSettings)).toHaveLength(2);
    for (const stage of stages) {
      const { DestinationArn, Format } = stage.Properties.AccessLogSettings;
      expect(groups[refId(DestinationArn)], stage.Properties.StageName).toBeDefined();
      expect(Format).toContain('$context.requestId');
    }
  });

  it('lets functions write only log streams, with no AWS managed policy', () => {
    for (const role of Object.values(resources('AWS::IAM::Role'))) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    for (const id of Object.keys(functions)) {
      const logging = statementsOf(id).filter((s) => asList(s.Action).some((a) => a.startsWith('logs:')));
      expect(logging.flatMap((s) => asList(s.Action)).sort(), id).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    }
  });

  it('refuses publishers of the alarm topic that do not use TLS', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('alarms on dead letters, API 5xx, consumer errors and throttles, into the alarm topic', () => {
    const alarms = Object.values(resources('AWS::CloudWatch::Alarm'));
    const topicId = Object.keys(resources('AWS::SNS::Topic'))[0]!;
    const named = (suffix: string) => alarms.find((a) => a.Properties.AlarmName === `notify-test-${suffix}`);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.ComparisonOperator).toBe('GreaterThanThreshold');
    }
    const queueNames = Object.fromEntries(
      Object.entries(resources('AWS::SQS::Queue')).map(([id, r]) => [id, r.Properties.QueueName as string]),
    );
    for (const q of queues) {
      const alarm = named(`${q.name}-dlq-not-empty`)!;
      expect(alarm.Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Namespace: 'AWS/SQS', Threshold: 0 });
      const dimension = (alarm.Properties.Dimensions as { Name: string; Value: any }[])[0]!;
      expect(queueNames[refId(dimension.Value)]).toBe(`notify-test-${q.name}-dlq`);
    }
    expect(named('api-5xx')!.Properties).toMatchObject({ MetricName: '5xx', Namespace: 'AWS/ApiGateway', Threshold: 5 });
    for (const q of consumers) {
      expect(named(`${q.name}-consumer-errors`)!.Properties).toMatchObject({ MetricName: 'Errors', Threshold: 0 });
      expect(named(`${q.name}-consumer-throttles`)!.Properties).toMatchObject({ MetricName: 'Throttles', Threshold: 0 });
    }
    expect(named('lambda-throttles')!.Properties).toMatchObject({ MetricName: 'Throttles', Namespace: 'AWS/Lambda' });
    expect(named('table-throttles')).toBeDefined();
    // The inbox sockets' routes: integration and execution errors of the WebSocket API's stage.
    const sockets = named('sockets-errors')!.Properties;
    expect(sockets.Threshold).toBe(0);
    const socketMetrics = (
      sockets.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } } }[]
    ).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric] : []));
    expect(socketMetrics.map((m) => m.MetricName).sort()).toEqual(['ExecutionError', 'IntegrationError']);
    for (const m of socketMetrics)
      expect(m.Dimensions).toEqual([
        { Name: 'ApiId', Value: { Ref: apiId('WEBSOCKET') } },
        { Name: 'Stage', Value: 'test' },
      ]);
    for (const c of streamConsumers) {
      expect(named(`${c.name}-stream-dlq-not-empty`)).toBeDefined();
      expect(named(`${c.name}-consumer-errors`)!.Properties).toMatchObject({ MetricName: 'Errors', Threshold: 0 });
      expect(named(`${c.name}-iterator-age`)!.Properties).toMatchObject({ MetricName: 'IteratorAge', Threshold: 300_000 });
    }
    expect(alarms.length).toBe(queues.length + 1 + consumers.length * 2 + streamConsumers.length * 3 + 4);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it("alarms when more than 5% of the channel jobs that ended in 5 minutes failed, by metric math on the service's metrics", () => {
    const alarm = Object.values(resources('AWS::CloudWatch::Alarm')).find(
      (a) => a.Properties.AlarmName === 'notify-test-delivery-failure-rate',
    )!;
    expect(alarm.Properties).toMatchObject({
      Threshold: DEFAULT_DELIVERY_FAILURE_RATE_ALARM_PERCENT,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    const queries = alarm.Properties.Metrics as {
      Id: string;
      Expression?: string;
      ReturnData?: boolean;
      MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: unknown }; Stat: string; Period: number };
    }[];
    const expression = queries.find((q) => q.Expression)!;
    expect(expression.Expression).toBe(
      `IF((FILL(delivered, 0) + FILL(failed, 0)) >= ${FAILURE_RATE_MIN_JOBS}, ` +
        '100 * FILL(failed, 0) / (FILL(delivered, 0) + FILL(failed, 0)), 0)',
    );
    const stats = Object.fromEntries(queries.filter((q) => q.MetricStat).map((q) => [q.Id, q.MetricStat!]));
    // The stage's totals: the points without channel and provider (an alarm cannot SEARCH).
    const dimensions = [
      { Name: 'service', Value: 'notify' },
      { Name: 'stage', Value: 'test' },
    ];
    expect(stats.delivered).toEqual({
      Metric: { Namespace: 'Notify', MetricName: 'Deliveries', Dimensions: dimensions },
      Stat: 'Sum',
      Period: 300,
    });
    expect(stats.failed).toEqual({
      Metric: { Namespace: 'Notify', MetricName: 'DeliveryFailures', Dimensions: dimensions },
      Stat: 'Sum',
      Period: 300,
    });
    // A stage may set its own threshold.
    const custom = stackTemplates(synthStack('custom', { deliveryFailureRateAlarmPercent: 20 })).resources('AWS::CloudWatch::Alarm');
    expect(Object.values(custom).find((a) => a.Properties.AlarmName === 'notify-custom-delivery-failure-rate')!.Properties.Threshold).toBe(
      20,
    );
  });

  it('has a dashboard of deliveries, failures, latency, queue age, dead letters and the API', () => {
    const dashboards = Object.values(resources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]!.Properties.DashboardName).toBe('notify-test');
    // The body is JSON joined with the ids of queues and the API: its text parts are enough here.
    const parts = dashboards[0]!.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const body = parts.map((p) => (typeof p === 'string' ? p : 'TOKEN')).join('');
    const titles = [...body.matchAll(/"title":"([^"]+)"/g)].map((m) => m[1]);
    expect(titles).toEqual([
      'Deliveries per channel and provider (5 min)',
      'Failures per channel and provider (5 min)',
      'Delivery failure rate (%)',
      'Trigger-to-delivery latency (ms)',
      'Queue age: oldest message (s)',
      'Dead-letter queues: messages',
      'API answers 4xx and 5xx (5 min)',
      'API latency (ms)',
    ]);
    const search = (metric: string, stat: string) =>
      `SEARCH('{Notify,service,stage,channel,provider} MetricName=\\"${metric}\\" service=\\"notify\\" stage=\\"test\\"', '${stat}', 300)`;
    expect(body).toContain(search('Deliveries', 'Sum'));
    expect(body).toContain(search('DeliveryFailures', 'Sum'));
    expect(body).toContain(search('TriggerToDeliveryLatency', 'p90'));
    // Each series of a SEARCH is labelled by its channel and provider.
    expect(body).toContain(`"label":"delivered \${PROP('Dim.channel')} \${PROP('Dim.provider')}"`);
    for (const p of ['p50', 'p90', 'p99'])
      expect(body).toContain(`["Notify","TriggerToDeliveryLatency","service","notify","stage","test",{"label":"${p}","stat":"${p}"}]`);
    expect(body).toContain('["Notify","TriggersAccepted","service","notify","stage","test"');
    // One queue-age line per queue, one depth line per dead-letter queue; the API's answers.
    expect(body.match(/"AWS\/SQS","ApproximateAgeOfOldestMessage"/g)).toHaveLength(queues.length);
    expect(body.match(/"AWS\/SQS","ApproximateNumberOfMessagesVisible"/g)).toHaveLength(queues.length + streamConsumers.length);
    for (const metric of ['4xx', '5xx', 'Count', 'Latency']) expect(body).toContain(`"AWS/ApiGateway","${metric}"`);
  });

  it('traces every function with X-Ray and names the stage its metrics carry', () => {
    expect(Object.keys(functions).length).toBeGreaterThan(routeTable.length);
    for (const [id, fn] of Object.entries(functions)) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Environment.Variables, id).toMatchObject({ NOTIFY_STAGE: 'test', POWERTOOLS_SERVICE_NAME: 'notify' });
      expect([...new Set(statementsOf(id).flatMap((s) => asList(s.Action)))], id).toEqual(expect.arrayContaining([...TRACING_ACTIONS]));
    }
  });

  it('serves the console at / and /console/{path+} from one function holding the built files, which reads no data', () => {
    const byKey = routeFunctions();
    const fnId = byKey.get('GET /')!;
    expect(consoleRoute.paths).toEqual(['/', '/console/{path+}']);
    expect(byKey.get('GET /console/{path+}')).toBe(fnId);
    // GET only: a HEAD or POST to the console's paths is the fallback's 404.
    expect([...byKey.keys()].filter((k) => k.endsWith(' /') || k.includes(' /console/'))).toEqual(['GET /', 'GET /console/{path+}']);
    expect([...actionsOf(fnId)]).toEqual([]);
    const variables = functions[fnId]!.Properties.Environment.Variables;
    // The files are copied beside the code, where Lambda unpacks the asset.
    expect(variables.CONSOLE_DIR).toBe(`/var/task/${CONSOLE_ASSET_DIR}`);
    // /console/config.json tells the page the stage's wss:// socket URL.
    const socketUrl = variables.LIVE_SOCKET_URL['Fn::Join'][1];
    expect(socketUrl[0]).toBe('wss://');
    expect(nestedOutput(socketUrl[1])).toEqual({ Ref: apiId('WEBSOCKET') });
    expect(socketUrl.at(-1)).toBe('/test');
    const consoleUrl = template.toJSON().Outputs.ConsoleUrl.Value['Fn::Join'][1];
    expect(consoleUrl.at(-1)).toMatch(/\/$/);
  });

  it('refuses to synth a bundling stage without the built console, saying how to build it or leave it out', () => {
    const bundling = new Stack(synthApp({ bundling: true }), 'Bundling');
    const make = () =>
      new ConsoleRoutes(bundling, 'ServeConsole', {
        api: new HttpApi(bundling, 'Api'),
        paths: consoleRoute.paths,
        socketUrl: 'wss://example.com/dev',
        distDir: '/nonexistent/console/dist',
        functions: {
          make: () => {
            throw new Error('no function is made without the files');
          },
        },
      });
    expect(make).toThrow(/console is not built .*npm run console:build.*-c console=false/);
  });

  it('leaves the console out when the stage says so (-c console=false)', () => {
    const without = stackTemplates(synthStack('noconsole', { console: false }));
    const keys = Object.values(without.resources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys).not.toContain('GET /');
    expect(keys.filter((k: string) => k.includes('/console'))).toEqual([]);
    expect(
      Object.keys(without.resources('AWS::Lambda::Function')).filter((id) => id.startsWith(pascalCase(consoleRoute.operationId))),
    ).toEqual([]);
    expect(without.template.toJSON().Outputs.ConsoleUrl).toBeUndefined();
  });

  it('outputs what the create-org command and operators need', () => {
    for (const output of ['ApiUrl', 'ConsoleUrl', 'SocketUrl', 'TableName', 'SecretsKeyArn', 'AlarmTopicArn'])
      template.hasOutput(output, {});
    // The socket URL is the stage's wss:// URL, the one clients connect to.
    const socketUrl = template.toJSON().Outputs.SocketUrl.Value['Fn::Join'][1];
    expect(socketUrl[0]).toBe('wss://');
    expect(nestedOutput(socketUrl[1])).toEqual({ Ref: apiId('WEBSOCKET') });
    expect(socketUrl.at(-1)).toBe('/test');
  });
});

describe('stages', () => {
  /** The stack of a stage with all its nested stacks. */
  const synthAll = (stage: string, props: Partial<NotifyStackProps> = {}) => stackTemplates(synthStack(stage, props));
  const kept = (stage: string, s: ReturnType<typeof synthAll>) => {
    const table = Object.values(s.template.findResources('AWS::DynamoDB::GlobalTable') as Record<string, Resource>)[0]!;
    const key = Object.values(s.template.findResources('AWS::KMS::Key') as Record<string, Resource>)[0]!;
    const logs = Object.values(s.resources('AWS::Logs::LogGroup'));
    // Every function's, and the access logs of the API stages that keep them.
    const loggedStages = Object.values(s.resources('AWS::ApiGatewayV2::Stage')).filter((stage) => stage.Properties.AccessLogSettings);
    expect(logs).toHaveLength(Object.keys(s.resources('AWS::Lambda::Function')).length + loggedStages.length);
    return {
      stage,
      table: table.DeletionPolicy,
      tableOnReplace: table.UpdateReplacePolicy,
      protection: table.Properties.Replicas[0].DeletionProtectionEnabled,
      key: key.DeletionPolicy,
      // Every function's, the nested stacks' too.
      logs: [...new Set(logs.map((g) => g.DeletionPolicy))],
    };
  };

  const devStacks = synthAll('dev', { apiThrottle: { rateLimit: 10, burstLimit: 20 } });
  const dev = devStacks.template;

  it('keeps the table, key and log groups of prod and staging on delete, not those of dev', () => {
    for (const stage of ['prod', 'staging']) {
      expect(kept(stage, synthAll(stage))).toEqual({
        stage,
        table: 'Retain',
        tableOnReplace: 'Retain',
        protection: true,
        key: 'Retain',
        logs: ['Retain'],
      });
    }
    expect(kept('dev', devStacks)).toEqual({
      stage: 'dev',
      table: 'Delete',
      tableOnReplace: 'Delete',
      protection: false,
      key: 'Delete',
      logs: ['Delete'],
    });
  });

  it('pre-warms the table only for a stage that asks (large broadcasts)', () => {
    const table = (s: ReturnType<typeof synthAll>) => Object.values(s.resources('AWS::DynamoDB::GlobalTable'))[0]!.Properties;
    expect(table(devStacks)).not.toHaveProperty('WarmThroughput');
    const warmed = synthAll('broadcasts', { tableWarmThroughput: { writeUnitsPerSecond: 40_000, readUnitsPerSecond: 12_000 } });
    expect(table(warmed).WarmThroughput).toEqual({ WriteUnitsPerSecond: 40_000, ReadUnitsPerSecond: 12_000 });
  });

  it('gives every function the service settings a stage chooses, and none it does not', () => {
    // Every function of the stage: the parent's (consumers) and the nested stacks' (routes, sockets).
    const variables = (s: ReturnType<typeof synthAll>) =>
      Object.values(s.resources('AWS::Lambda::Function')).map((fn) => fn.Properties.Environment.Variables);
    const chosen = synthAll('tuned', {
      settings: {
        activityRetentionDays: 90,
        messageRetentionDays: 180,
        providerTimeoutMs: 5000,
        apiKeyGraceSeconds: 3600,
        maxDeferDays: 30,
        rateLimitTriggerPerSecond: 400,
      },
      rateLimitServiceLevel: 'pro',
    });
    // Besides: the socket authorizer, the fallback route's and the console's.
    expect(variables(chosen)).toHaveLength(routeTable.length + consumers.length + streamConsumers.length + socketRoutes.length + 3);
    for (const env of variables(chosen)) {
      expect(env).toMatchObject({
        ACTIVITY_RETENTION_DAYS: '90',
        MESSAGE_RETENTION_DAYS: '180',
        PROVIDER_TIMEOUT_MS: '5000',
        API_KEY_GRACE_SECONDS: '3600',
        MAX_DEFER_DAYS: '30',
      });
      expect(env).toMatchObject({ RATE_LIMIT_SERVICE_LEVEL: 'pro', RATE_LIMIT_TRIGGER_PER_SECOND: '400' });
      expect(env).not.toHaveProperty('PROVIDER_RETRY_BACKOFF_MS');
      expect(env).not.toHaveProperty('RATE_LIMIT_GLOBAL_PER_SECOND');
    }
    for (const env of variables(devStacks)) {
      expect(env).not.toHaveProperty('ACTIVITY_RETENTION_DAYS');
      expect(env).not.toHaveProperty('MESSAGE_RETENTION_DAYS');
      expect(env).not.toHaveProperty('RATE_LIMIT_SERVICE_LEVEL');
    }
  });

  it('has no email subscription without alarmEmail, and takes throttling settings', () => {
    const t = dev;
    t.resourceCountIs('AWS::SNS::Topic', 1);
    t.resourceCountIs('AWS::SNS::Subscription', 0);
    t.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    });
  });
});
