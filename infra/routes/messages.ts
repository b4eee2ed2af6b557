import {
  deleteMessageResponse,
  listMessagesQuery,
  messageIdParams,
  messageListSchema,
  transactionMessagesParams,
  transactionMessagesQuery,
} from '#lib/messages/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Messages of the environment (/v1/messages). Part of the route table (infra/routes.ts); the handlers in
// functions/messages/ take their entry from here, so their bundles hold only this area's schemas.
// Delete answers in the reference's `{data}` envelope; the list is a page, which carries `data` already.

export const messageRoutes = [
  {
    operationId: 'listMessages',
    method: 'GET',
    path: '/v1/messages',
    handler: 'functions/messages/list-messages.ts',
    summary: 'List the messages of the environment, or of one subscriber, newest first (numbered pages)',
    tag: 'Messages',
    auth: 'apiKey',
    successStatus: 200,
    request: { query: listMessagesQuery },
    response: messageListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'deleteMessage',
    method: 'DELETE',
    path: '/v1/messages/{messageId}',
    handler: 'functions/messages/delete-message.ts',
    summary: 'Delete a message',
    tag: 'Messages',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { params: messageIdParams },
    response: deleteMessageResponse,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
    sends: ['live'],
  },
  {
    operationId: 'deleteMessagesByTransactionId',
    method: 'DELETE',
    path: '/v1/messages/transaction/{transactionId}',
    handler: 'functions/messages/delete-messages-by-transaction-id.ts',
    summary: 'Delete every message of a transaction (of one channel, when given)',
    tag: 'Messages',
    auth: 'apiKey',
    successStatus: 204,
    request: { params: transactionMessagesParams, query: transactionMessagesQuery },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
    sends: ['live'],
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(messageRoutes);
