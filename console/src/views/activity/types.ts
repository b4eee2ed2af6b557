// The fields of the API's bodies the activity views read (GET /v1/notifications, /v1/messages).

import type { MessageEngagement } from '../../../../lib/messages/model.ts';

export interface ExecutionDetail {
  _id: string;
  createdAt?: string;
  status: string;
  detail: string;
  source: string;
  isRetry: boolean;
  providerId?: string;
  /** JSON text of what the decision was based on. */
  raw?: string | null;
}

export interface DigestInfo {
  type: 'regular' | 'backoff' | 'timed';
  digestKey?: string;
  amount?: number;
  unit?: string;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: string;
  events?: Record<string, unknown>[];
  timed?: { cronExpression?: string; untilDate?: string };
}

export interface ActivityJob {
  _id: string;
  type: string;
  status: string;
  providerId: string;
  updatedAt?: string;
  digest?: DigestInfo;
  step: { _id: string; name?: string; metadata?: Record<string, unknown> };
  executionDetails: ExecutionDetail[];
}

export interface ActivityNotification {
  _id: string;
  _subscriberId: string;
  _templateId?: string;
  _digestedNotificationId?: string;
  transactionId: string;
  channels?: string[];
  createdAt?: string;
  payload?: Record<string, unknown>;
  topics?: { topicKey: string }[];
  subscriber?: { subscriberId: string; email?: string | null; firstName?: string | null; lastName?: string | null };
  template?: { _id?: string; name: string; triggers: { identifier: string }[] };
  jobs?: ActivityJob[];
  severity?: string;
}

export interface ActivityPage {
  page: number;
  hasMore: boolean;
  pageSize: number;
  data: ActivityNotification[];
}

/** A message as the activity feed shows it, with the engagement the service tracks. */
export interface Message extends MessageEngagement {
  _id: string;
  _jobId: string;
  channel: string;
  providerId: string;
  status: string;
  subject?: string;
  title?: string;
  content: string;
  email?: string;
  phone?: string;
  read: boolean;
  seen: boolean;
  deliveryStatus?: string;
  errorText?: string;
  createdAt: string;
}

export interface MessagePage {
  data: Message[];
  hasMore: boolean;
}

export interface WorkflowSummary {
  _id: string;
  workflowId: string;
  name: string;
}
