import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { RouteAuth } from '../../lib/http/route.ts';

// cdk-nag's AwsSolutions findings that are by design, acknowledged on the construct they concern
// (never on a whole stack) with the reason that holds for it. test/unit/nag.test.ts runs the rule
// pack on every kind of stage and fails on any finding not acknowledged here.

/**
 * Acknowledge one AwsSolutions finding on a construct and what it contains: a rule id
 * (`AwsSolutions-APIG4`), or one finding of a rule that reports several, with its pattern
 * (`AwsSolutions-IAM5[Resource::...]`, cdk-nag's form of v2's `appliesTo`).
 */
export function acknowledgeNag(scope: IConstruct, id: `AwsSolutions-${string}`, reason: string): void {
  // Qualified by the plugin's name (the pack's), as CDK's validation report asks: a bare id would
  // be recorded as an annotation's.
  Validations.of(scope).acknowledge({ id: `${NAG_PACK}::${id}`, reason });
}

/** The rule pack's name, which qualifies its findings' ids. */
export const NAG_PACK = 'AwsSolutions';

/**
 * Why an HTTP route has no API Gateway authorizer (AwsSolutions-APIG4): each kind of caller is
 * authenticated by the route's function, before it reads or writes anything
 * (lib/http/middleware.ts, lib/auth/).
 */
export const UNAUTHORIZED_ROUTE_REASONS: Record<RouteAuth, string> = {
  apiKey:
    'Authenticated in the function: `Authorization: ApiKey <key>` is looked up by its SHA-256 hash in the table ' +
    '(lib/auth/api-keys.ts) and scopes every read and write to its environment. Moving this to a Lambda authorizer ' +
    'with a result cache is issue 22 item 2, decided by measurement.',
  subscriber:
    "Inbox route: `Authorization: Bearer <session token>` is verified in the function against the stage's session " +
    'signing key (lib/auth/session-token.ts), which scopes it to one subscriber of one environment.',
  none:
    'Public by design: the OpenAPI document, or the inbox session that hands out session tokens (it checks the ' +
    "application identifier and, when the environment requires it, the subscriber's HMAC hash: lib/inbox/session.ts).",
};

/**
 * An ARN of this partition, region and account as cdk-nag writes it in a finding
 * (`arn:<AWS::Partition>:<service>:<AWS::Region>:<AWS::AccountId>:<resource>`), for the
 * resource pattern of an acknowledged IAM5 finding. The ARN itself must be built from the same
 * pseudo parameters (`Aws.PARTITION`, ...), not from the stack's account and region.
 */
export const nagArn = (service: string, resource: string): string =>
  `arn:<AWS::Partition>:${service}:<AWS::Region>:<AWS::AccountId>:${resource}`;
