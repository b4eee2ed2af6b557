import { ValidationError, type FieldError } from '../errors.ts';
import { newAjv } from './json-schema.ts';

// The control values of a code-first step, checked against the control schema its code declared
// (stored by the sync, lib/bridge/sync.ts), with the schema's defaults filled in for the check
// only: the bridge applies them itself. Shared by PUT /v1/bridge/controls and PUT /v2/workflows.

/** 422 naming each refused value under `field` (`variables`, `steps.0.controlValues`). */
export async function checkCodeControls(schema: Record<string, unknown>, values: Record<string, unknown>, field: string): Promise<void> {
  let validate;
  try {
    validate = (await newAjv({ useDefaults: true })).compile(schema);
  } catch {
    return; // a schema ajv cannot read: the bridge checks the values when it runs
  }
  if (validate(structuredClone(values))) return;
  const errors: Record<string, FieldError> = {};
  for (const e of validate.errors ?? []) {
    const path = e.instancePath.split('/').filter(Boolean).join('.');
    const params = e.params as { missingProperty?: string; additionalProperty?: string };
    // A missing or unknown key is named itself, not the object that lacks or holds it.
    const key =
      e.keyword === 'required' ? params.missingProperty : e.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
    const name = [field, path, key].filter(Boolean).join('.');
    (errors[name] ??= { messages: [], value: null }).messages.push(e.message ?? 'is invalid');
  }
  throw new ValidationError(errors);
}
