import type { Receipt, ReceiptReader } from '../model.ts';
import { assertBasicAuth } from './basic-auth.ts';
import { parseJson, validDate } from './date.ts';

// Infobip's SMS delivery reports (the `notifyUrl` of a send, or the account's delivery-report
// URL) are not signed: the credentials of the URL, sent as HTTP Basic auth, are checked against
// inboundWebhookSigningKey when it is set (basic-auth.ts). One POST carries several `results`;
// a report's status group names the outcome. No event id: (message, status) names one.

const STATUS: Record<string, string> = {
  PENDING: 'sending',
  DELIVERED: 'delivered',
  UNDELIVERABLE: 'undelivered',
  EXPIRED: 'failed',
  REJECTED: 'failed',
};

interface InfobipReport {
  messageId?: string;
  doneAt?: string;
  status?: { groupName?: string; name?: string; description?: string };
  error?: { name?: string; description?: string };
}

export const infobipReceipts: ReceiptReader = {
  async read({ integration, headers, rawBody }) {
    assertBasicAuth(integration, headers, 'Infobip');
    const results = (parseJson(rawBody) as { results?: InfobipReport[] } | undefined)?.results;
    if (!Array.isArray(results)) return [];
    return results.flatMap((r): Receipt[] => {
      const status = STATUS[r.status?.groupName ?? ''];
      if (!r.messageId || !status) return [];
      const failed = r.error?.name && r.error.name !== 'NO_ERROR' ? (r.error.description ?? r.error.name) : undefined;
      const response = failed ?? r.status?.description;
      return [
        {
          eventId: `${r.messageId}:${r.status?.name ?? status}`,
          identifier: r.messageId,
          status,
          vendorStatus: r.status?.name ?? r.status!.groupName!,
          date: validDate(r.doneAt) ?? new Date().toISOString(),
          ...(response && { response }),
          raw: r,
        },
      ];
    });
  },
};
