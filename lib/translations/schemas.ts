import * as z from '../zod.ts';
import { MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { invalidLocaleMessage, normalizeLocale } from './locales.ts';

// Shapes of the translation API (the reference's v2 DTOs) and of the organization's locale
// settings. Locales are validated and normalised here (`en-US` → `en_US`), so an unknown one is
// a 422 naming its field before anything runs.

export const RESOURCE_TYPES = ['workflow', 'layout'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const localeSchema = z.pipe(
  z.string().check(
    z.maxLength(16, 'locale must be a known locale such as en_US'),
    z.refine((value) => normalizeLocale(value) !== undefined, { error: (issue) => invalidLocaleMessage(String(issue.input)) }),
  ),
  z.transform((value) => normalizeLocale(value)!),
);

const resourceType = z.enum(RESOURCE_TYPES, { error: `resourceType must be one of: ${RESOURCE_TYPES.join(', ')}` });
const resourceId = z.string().check(z.minLength(1, 'resourceId must not be empty'), z.maxLength(MAX_EXTERNAL_ID_LENGTH));
/**
 * A locale's content is one item, stored as JSON text: bounded well under DynamoDB's 400 KB
 * item limit, so a write never fails at the table.
 */
export const MAX_CONTENT_BYTES = 350 * 1024;
export const fitsContentLimit = (content: unknown): boolean => Buffer.byteLength(JSON.stringify(content), 'utf8') <= MAX_CONTENT_BYTES;

/** A locale's content: keys to texts, nested or with dotted keys (both resolve). */
const content = z
  .record(z.string(), z.unknown(), { error: 'content must be an object' })
  .check(z.refine(fitsContentLimit, `content must be at most ${MAX_CONTENT_BYTES} bytes as JSON`));
export type TranslationContent = Record<string, unknown>;

export const createTranslationBody = z.object({ resourceId, resourceType, locale: localeSchema, content });
export type CreateTranslationInput = z.infer<typeof createTranslationBody>;

export const resourceParams = z.object({ resourceType, resourceId });
export const translationParams = z.object({ resourceType, resourceId, locale: localeSchema });

export const masterJsonQuery = z.object({ locale: z.optional(localeSchema) });

const resourcesById = z.record(z.string(), content);
export const importMasterJsonBody = z.object({
  locale: localeSchema,
  masterJson: z.object({ workflows: z._default(resourcesById, {}), layouts: z.optional(resourcesById) }),
});
export type ImportMasterJsonInput = z.infer<typeof importMasterJsonBody>;

export const listGroupsQuery = z.object({
  query: z.optional(z.string().check(z.maxLength(256))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
});
export type ListGroupsQuery = z.infer<typeof listGroupsQuery>;

// ---- responses -------------------------------------------------------------------------------

export const translationSchema = z
  .object({
    resourceId: z.string(),
    resourceType,
    locale: z.string(),
    content: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Translation' });
export type Translation = z.infer<typeof translationSchema>;

export const translationGroupSchema = z
  .object({
    resourceId: z.string(),
    resourceType,
    resourceName: z.string(),
    locales: z.array(z.string()),
    outdatedLocales: z.optional(z.array(z.string())),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'TranslationGroup' });
export type TranslationGroup = z.infer<typeof translationGroupSchema>;

export const translationGroupPageSchema = z
  .object({ data: z.array(translationGroupSchema), total: z.number(), limit: z.number(), offset: z.number() })
  .register(z.globalRegistry, { id: 'TranslationGroupPage' });
export type TranslationGroupPage = z.infer<typeof translationGroupPageSchema>;

export const masterJsonSchema = z
  .object({
    workflows: z.record(z.string(), z.record(z.string(), z.unknown())),
    layouts: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .register(z.globalRegistry, { id: 'MasterJson' });
export type MasterJson = z.infer<typeof masterJsonSchema>;

export const importMasterJsonResultSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    successful: z.optional(z.array(z.string())),
    failed: z.optional(z.array(z.string())),
  })
  .register(z.globalRegistry, { id: 'ImportMasterJsonResult' });
export type ImportMasterJsonResult = z.infer<typeof importMasterJsonResultSchema>;

// ---- uploads (multipart/form-data, read by lib/http/multipart.ts) -----------------------------

const uploadedFile = z.object({ filename: z.string(), content: z.string() });
const uploadedFiles = z.array(uploadedFile, { error: 'must be files' }).check(z.maxLength(100, 'at most 100 files'));
export type UploadedTranslationFile = z.infer<typeof uploadedFile>;

/** The reference takes the files under `files` or `files[]` (what `@novu/api` sends). */
export const uploadTranslationsBody = z.object({
  resourceId,
  resourceType,
  files: z.optional(uploadedFiles),
  'files[]': z.optional(uploadedFiles),
});
export type UploadTranslationsInput = z.infer<typeof uploadTranslationsBody>;

export const uploadMasterJsonBody = z.object({ file: z.optional(uploadedFiles) });
export type UploadMasterJsonInput = z.infer<typeof uploadMasterJsonBody>;

export const uploadResultSchema = z
  .object({ totalFiles: z.number(), successfulUploads: z.number(), failedUploads: z.number(), errors: z.array(z.string()) })
  .register(z.globalRegistry, { id: 'UploadTranslationsResult' });
export type UploadResult = z.infer<typeof uploadResultSchema>;
