import * as z from '../zod.ts';

// The API keys of the caller's environment (/v1/environments/api-keys), in the reference's shape
// (`ApiKeyDto`: key, _userId, hash), the key masked (lib/accounts/api-keys.ts says why).

export const apiKeySchema = z
  .object({
    /** Masked: `********` and the key's last four characters. */
    key: z.string(),
    _userId: z.string(),
    /** SHA-256 of the key, hex: what DELETE /v1/environments/api-keys/{hash} names. */
    hash: z.string(),
    createdAt: z.string(),
    /** When a key replaced by a regenerated one stops working. */
    expiresAt: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'ApiKey' });
export type ApiKeyView = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.array(apiKeySchema);

/** What regenerate answers: the new key in clear, the only time it is shown. */
export const regeneratedApiKeySchema = z
  .object({ _userId: z.string(), key: z.string() })
  .register(z.globalRegistry, { id: 'RegeneratedApiKey' });
export type RegeneratedApiKey = z.infer<typeof regeneratedApiKeySchema>;

export const regeneratedApiKeyListSchema = z.array(regeneratedApiKeySchema);

export const apiKeyParams = z.object({
  hash: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be the 64 hex characters of a key’s SHA-256')),
});
