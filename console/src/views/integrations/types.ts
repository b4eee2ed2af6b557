// The fields of the API's integration resource (GET /v1/integrations) that these views read.

import type { Channel } from '../../../../lib/integrations/catalogue.ts';

export interface FilterPart {
  field: string;
  value: string;
  operator: string;
  on: 'subscriber' | 'payload' | 'tenant';
}

export interface Condition {
  isNegated: boolean;
  type?: string;
  value?: 'AND' | 'OR';
  children: FilterPart[];
}

export type CredentialValue = string | boolean | Record<string, unknown>;

export interface Integration {
  _id: string;
  _environmentId: string;
  name: string;
  identifier: string;
  providerId: string;
  channel: Channel;
  credentials: Record<string, CredentialValue | undefined>;
  active: boolean;
  primary: boolean;
  priority: number;
  conditions?: Condition[];
  createdAt: string;
  updatedAt: string;
}
