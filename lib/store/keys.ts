// Every key of the single table is built here and nowhere else. Keys of tenant data start with
// the organization and, where the data belongs to one environment, the environment as well.
// docs/data-model.md lists the access pattern each key serves.

export interface Key {
  pk: string;
  sk: string;
}

export interface EnvScope {
  organizationId: string;
  environmentId: string;
}

const org = (organizationId: string) => `ORG#${organizationId}`;
const env = (s: EnvScope) => `ORG#${s.organizationId}#ENV#${s.environmentId}`;

export const keys = {
  organization: (organizationId: string): Key => ({ pk: org(organizationId), sk: 'ORG' }),

  environment: (organizationId: string, environmentId: string): Key => ({
    pk: org(organizationId),
    sk: `ENV#${environmentId}`,
  }),
  environmentsOfOrganization: (organizationId: string) => ({ pk: org(organizationId), skPrefix: 'ENV#' }),

  /** API keys are looked up by the hash of the key itself: that lookup is what finds the scope. */
  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),

  integration: (organizationId: string, integrationId: string): Key => ({
    pk: org(organizationId),
    sk: `INT#${integrationId}`,
  }),
  integrationsOfOrganization: (organizationId: string) => ({ pk: org(organizationId), skPrefix: 'INT#' }),
  /** gsi1: the integrations of one environment and channel (provider selection, primary rules). */
  integrationsOfChannel: (s: EnvScope, channel: string) => ({ gsi1pk: `${env(s)}#INTCH#${channel}` }),
  integrationChannelIndex: (s: EnvScope, channel: string, integrationId: string) => ({
    gsi1pk: `${env(s)}#INTCH#${channel}`,
    gsi1sk: integrationId,
  }),
  /**
   * The order of an environment's active email or sms integrations (primary first). Every change
   * of priority or primary is a transaction conditioned on this item, read consistently, so
   * concurrent changes of one channel serialize and never plan from a lagging index.
   */
  integrationChannelOrder: (s: EnvScope, channel: string): Key => ({
    pk: org(s.organizationId),
    sk: `INTORDER#${s.environmentId}#${channel}`,
  }),
  /** Marker item that makes an identifier unique within the organization. */
  integrationIdentifier: (organizationId: string, identifier: string): Key => ({
    pk: org(organizationId),
    sk: `INTIDENT#${identifier}`,
  }),

  /**
   * Idempotency records are written by Powertools, which builds the key value itself
   * (`<prefix>#<hash of organization and idempotency-key>`). We give it the attribute names
   * swapped — its "key" attribute is our sort key — so each record gets its own partition
   * instead of all of them sharing one static partition.
   */
  idempotency: { prefix: 'IDEMPOTENCY', recordSortKey: 'IDEMPOTENCY' },
} as const;
