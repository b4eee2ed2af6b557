import * as z from '../zod.ts';
import { cursorQueryFields } from '../http/cursor-list.ts';
import { contextDataSchema, contextIdSchema } from './fields.ts';

// Shapes of contexts, of the requests that change them and of their cursor list (the SDK's
// CreateContextRequestDto, UpdateContextRequestDto, GetContextResponseDto and
// ListContextsResponseDto). Unknown body fields are ignored (zod strips them), as the reference does.

const bridgeUrl = z.url({ protocol: /^https?$/, error: 'bridgeUrl must be an http or https URL' }).check(z.maxLength(2048));

export const createContextBody = z.object({
  type: contextIdSchema('type'),
  id: contextIdSchema('id'),
  data: z.optional(contextDataSchema('data')),
  bridgeUrl: z.optional(bridgeUrl),
});
export type CreateContextInput = z.infer<typeof createContextBody>;

/** `data` replaces the stored data whole; `bridgeUrl: null` removes it. */
export const updateContextBody = z.object({
  data: contextDataSchema('data'),
  bridgeUrl: z.optional(z.nullable(bridgeUrl)),
});
export type ContextUpdate = z.infer<typeof updateContextBody>;

/** Path parts are only bounded: a type or id no context can have is simply not found. */
export const contextParams = z.object({
  type: z.string().check(z.minLength(1), z.maxLength(100)),
  id: z.string().check(z.minLength(1), z.maxLength(100)),
});

export const listContextsQuery = z.object({
  ...cursorQueryFields,
  /** Only creation order is kept in an index (docs/differences.md). */
  orderBy: z._default(z.enum(['createdAt'], { error: 'orderBy must be createdAt' }), 'createdAt'),
  type: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  /** Part of `type:id`, in any case. */
  search: z.optional(z.string().check(z.minLength(1), z.maxLength(201))),
});
export type ListContextsQuery = z.infer<typeof listContextsQuery>;

// ---- responses -------------------------------------------------------------------------------

export const contextSchema = z
  .object({
    type: z.string(),
    id: z.string(),
    data: z.record(z.string(), z.unknown()),
    bridgeUrl: z.optional(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Context' });
export type Context = z.infer<typeof contextSchema>;

export const contextListSchema = z
  .object({
    data: z.array(contextSchema),
    next: z.nullable(z.string()),
    previous: z.nullable(z.string()),
    totalCount: z.number(),
    totalCountCapped: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'ContextList' });
export type ContextList = z.infer<typeof contextListSchema>;
