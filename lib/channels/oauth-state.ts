import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { sessionSigningKey } from '../auth/session-key.ts';
import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { keys } from '../store/keys.ts';

// The `state` of a chat OAuth flow: what the callback must trust about who asked (environment,
// integration, subscriber or context, connection identifier). A JWT signed with the stage's
// signing key under an audience of its own (a session token is never a state, nor the reverse),
// valid 5 minutes, and single-use: the callback records its id with a conditional write, so a
// replayed state is refused.

const ISSUER = 'notify';
const AUDIENCE = 'chat_oauth_state';
export const STATE_TTL_SECONDS = 5 * 60;

export interface OAuthState {
  /** `connect`: a workspace or tenant install makes a connection; `link_user`: a user sign-in makes an endpoint. */
  mode: 'connect' | 'link_user';
  organizationId: string;
  environmentId: string;
  integrationIdentifier: string;
  connectionMode: 'subscriber' | 'shared';
  subscriberId?: string | undefined;
  contextKeys: string[];
  connectionIdentifier?: string | undefined;
  /** After a connect, the subscriber's own user is linked too. */
  autoLinkUser?: boolean | undefined;
}

export async function signState(state: OAuthState, now = new Date()): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ ...state })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(randomUUID())
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + STATE_TTL_SECONDS)
    .sign(await sessionSigningKey({ create: true }));
}

export type StateCheck = { ok: true; state: OAuthState } | { ok: false; reason: 'invalid' | 'expired' | 'used' };

/** Verifies the state and uses it up; a second use of the same state is `used`. */
export async function consumeState(token: string): Promise<StateCheck> {
  const key = await sessionSigningKey();
  if (!key) return { ok: false, reason: 'invalid' };
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE }));
  } catch (error) {
    return { ok: false, reason: (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
  }
  const state = stateOf(payload);
  if (!state || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
  const scope: EnvScope = { organizationId: state.organizationId, environmentId: state.environmentId };
  const fresh = await writeIf(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.chatOAuthStateUse(scope, payload.jti as string), type: 'ChatOAuthStateUse', ttl: (payload.exp as number) + 3600 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return fresh ? { ok: true, state } : { ok: false, reason: 'used' };
}

function stateOf(p: Record<string, unknown>): OAuthState | undefined {
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const { mode, organizationId, environmentId, integrationIdentifier, connectionMode, contextKeys } = p;
  if (mode !== 'connect' && mode !== 'link_user') return undefined;
  if (typeof organizationId !== 'string' || typeof environmentId !== 'string' || typeof integrationIdentifier !== 'string')
    return undefined;
  if (connectionMode !== 'subscriber' && connectionMode !== 'shared') return undefined;
  if (!Array.isArray(contextKeys) || !contextKeys.every((k) => typeof k === 'string')) return undefined;
  return {
    mode,
    organizationId,
    environmentId,
    integrationIdentifier,
    connectionMode,
    subscriberId: text(p.subscriberId),
    contextKeys: contextKeys as string[],
    connectionIdentifier: text(p.connectionIdentifier),
    autoLinkUser: p.autoLinkUser === true,
  };
}
