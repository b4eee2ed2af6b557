import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { PutCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The state of a chat OAuth flow (lib/channels/oauth-state.ts) as the callback judges it: a
// state it signed is accepted once; an expired one, a forged one (another key, a changed payload,
// another audience, not a JWT) and a second use are refused with their reason. The stage's
// signing key and the table's conditional write are stood in for: a fixed key, and a set of the
// used states' keys that refuses a second write as DynamoDB's condition does.

const KEY = new TextEncoder().encode('a-fixed-signing-key-of-32-bytes!');
const hoisted = vi.hoisted(() => ({ key: undefined as Uint8Array | undefined, used: new Set<string>() }));

vi.mock('#lib/auth/session-key.ts', () => ({ sessionSigningKey: async () => hoisted.key }));
vi.mock('#lib/config.ts', async (actual) => ({ ...(await actual<object>()), tableName: () => 'table' }));
vi.mock('#lib/store/client.ts', () => ({
  db: () => ({
    send: async (command: PutCommand) => {
      const { pk, sk } = command.input.Item as { pk: string; sk: string };
      if (hoisted.used.has(`${pk}/${sk}`)) throw new ConditionalCheckFailedException({ message: 'used', $metadata: {} });
      hoisted.used.add(`${pk}/${sk}`);
      return {};
    },
  }),
}));

const { consumeState, signState, STATE_TTL_SECONDS } = await import('#lib/channels/oauth-state.ts');
type OAuthState = Parameters<typeof signState>[0];

const state: OAuthState = {
  mode: 'connect',
  organizationId: 'org-1',
  environmentId: 'env-1',
  integrationIdentifier: 'slack-1',
  connectionMode: 'shared',
  contextKeys: ['team:acme'],
};

beforeEach(() => {
  hoisted.key = KEY;
  hoisted.used.clear();
});

const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);

describe('chat OAuth state', () => {
  it('is accepted once with what it was signed for; a replay is refused as used', async () => {
    const token = await signState(state);
    const first = await consumeState(token);
    expect(first).toMatchObject({ ok: true, state: { ...state, subscriberId: undefined, autoLinkUser: false } });
    expect(await consumeState(token)).toEqual({ ok: false, reason: 'used' });
    // Another state of the same flow is a state of its own.
    expect((await consumeState(await signState(state))).ok).toBe(true);
  });

  it('is valid for its lifetime and refused as expired after it, used or not', async () => {
    expect((await consumeState(await signState(state, secondsAgo(STATE_TTL_SECONDS - 30)))).ok).toBe(true);
    const stale = await signState(state, secondsAgo(STATE_TTL_SECONDS + 5));
    expect(await consumeState(stale)).toEqual({ ok: false, reason: 'expired' });
    expect(hoisted.used.size).toBe(1);
  });

  it('refuses a forged state as invalid and records nothing', async () => {
    const claims = { ...state, organizationId: 'org-2' };
    const otherKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('j-1')
      .setIssuer('notify')
      .setAudience('chat_oauth_state')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('somebody-elses-key-of-32-bytes!!'));
    expect(await consumeState(otherKey)).toEqual({ ok: false, reason: 'invalid' });

    // A genuine state whose payload was changed to name another organization.
    const [header, payload, signature] = (await signState(state)).split('.');
    const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), organizationId: 'org-2' }));
    expect(await consumeState(`${header}.${changed.toString('base64url')}.${signature}`)).toEqual({ ok: false, reason: 'invalid' });

    // Signed with the stage's key but for another audience (a subscriber session token), or
    // without what a state must say.
    const session = await new SignJWT({ ...state })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('j-2')
      .setAudience('widget_user')
      .setIssuer('notify')
      .setExpirationTime('5m')
      .sign(KEY);
    expect(await consumeState(session)).toEqual({ ok: false, reason: 'invalid' });
    const partial = await new SignJWT({ mode: 'connect' })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('j-3')
      .setAudience('chat_oauth_state')
      .setIssuer('notify')
      .setExpirationTime('5m')
      .sign(KEY);
    expect(await consumeState(partial)).toEqual({ ok: false, reason: 'invalid' });

    expect(await consumeState('not-a-jwt')).toEqual({ ok: false, reason: 'invalid' });
    expect(hoisted.used.size).toBe(0);
  });

  it('refuses every state while the stage has no signing key', async () => {
    const token = await signState(state);
    hoisted.key = undefined;
    expect(await consumeState(token)).toEqual({ ok: false, reason: 'invalid' });
  });
});
