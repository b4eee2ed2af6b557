import { en } from 'zod/locales';
import * as z from 'zod/mini';

// The one place the service takes zod from: zod/mini, whose functions esbuild tree-shakes (zod
// classic's methods are all attached to every schema, ~70 KB more in every Lambda bundle and a
// slower cold start; docs/performance.md). zod/mini carries no messages, so the English ones, the
// words of the reference's 422s, are set here, where every schema module imports zod: any parse,
// in any bundle, words its issues the same.
z.config(en());

export * from 'zod/mini';

/**
 * zod classic's `preprocess`, which zod/mini lacks: `fn` runs on the raw input and `schema` parses
 * what it returns (the same pipe classic builds, typed as classic types it).
 */
export const preprocess = <S extends z.core.SomeType>(fn: (value: unknown) => unknown, schema: S) =>
  z.pipe(z.transform(fn), schema as unknown as z.core.$ZodType) as unknown as z.ZodMiniPipe<z.ZodMiniTransform<unknown, unknown>, S>;
