import type { Ajv, Options } from 'ajv';
import { lazy } from '../lazy.ts';

// The one way this service builds a JSON Schema validator: ajv (non-strict, as the reference
// runs it) with the standard formats (email, date-time, uri, ...) that payload schemas use:
// ajv-formats' full set, given to ajv as its `formats` option (ajv-formats' plugin would also add
// its formatMinimum/formatMaximum keywords, but it builds them with ajv's own code generator,
// which a lazily loaded ajv does not share with it).
// ajv is loaded by the first schema to compile (lib/lazy.ts): most triggers name a workflow
// without one, and ajv would be over a third of the trigger functions' bundles.

const ajv = lazy('ajv', async () => {
  const [{ Ajv }, { fullFormats }] = await Promise.all([import('ajv'), import('ajv-formats/dist/formats.js')]);
  return { Ajv, fullFormats };
});

export async function newAjv(options: Options = {}): Promise<Ajv> {
  const { Ajv, fullFormats } = await ajv.load();
  return new Ajv({ strict: false, allErrors: true, formats: fullFormats, ...options });
}
