import { route } from '#infra/routes/messages.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeMessagesOfTransaction } from '#lib/pipeline/transaction-messages.ts';

export const handler = httpHandler(route('deleteMessagesByTransactionId'), ({ caller, params, query }) =>
  removeMessagesOfTransaction(caller, params.transactionId, query.channel),
);
