import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

// The one way this service builds a JSON Schema validator: ajv (non-strict, as the reference
// runs it) with the standard formats (email, date-time, uri, ...) that payload schemas use.
export function newAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, ...options });
  addFormats.default(ajv);
  return ajv;
}
