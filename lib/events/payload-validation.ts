import type { ErrorObject, ValidateFunction } from 'ajv';
import { newAjv } from '../workflows/json-schema.ts';
import { AppError, type FieldError } from '../errors.ts';
import type { StoredWorkflow } from '../workflows/model.ts';

// A trigger's payload against its workflow's JSON Schema, when the workflow asks for it: all
// errors reported, schema defaults written into the payload (as the reference does with ajv).
// Standard formats are checked (ajv-formats); the schema itself was checked to compile when the
// workflow was saved (workflows/payload-schema.ts).

export interface PayloadProblem {
  /** Dotted path in the payload (`root` for the payload itself). */
  field: string;
  message: string;
  value: unknown;
}

export type PayloadCheck = { ok: true; payload: Record<string, unknown> } | { ok: false; problems: PayloadProblem[]; message: string };

/** The reference's 400: the message lists every problem; `errors` keys them by body path. */
export class PayloadValidationError extends AppError {
  constructor(message: string, problems: readonly PayloadProblem[]) {
    const errors: Record<string, FieldError> = {};
    for (const p of problems) {
      const key = p.field === 'root' ? 'payload' : `payload.${p.field}`;
      (errors[key] ??= { messages: [], value: p.value ?? null }).messages.push(p.message);
    }
    super(400, message, { errors });
  }
}

/** Enough to say what is wrong without answering with a payload-sized message. */
const MAX_PROBLEMS = 50;
/** Compiled validators of recently triggered workflow versions; each has its own ajv, freed with it. */
const CACHE_SIZE = 200;
const cache = new Map<string, ValidateFunction>();

type ValidatedWorkflow = Pick<StoredWorkflow, '_id' | 'validatePayload' | 'payloadSchema'> & { version?: number };

export async function checkPayload(workflow: ValidatedWorkflow, payload: Record<string, unknown>): Promise<PayloadCheck> {
  if (!workflow.validatePayload || !workflow.payloadSchema) return { ok: true, payload };
  let validate: ValidateFunction;
  try {
    validate = await validatorOf(workflow, workflow.payloadSchema);
  } catch (error) {
    // Saved before schemas were checked: say so rather than fail the request.
    const problem = { field: 'root', message: `payloadSchema is not a valid JSON Schema: ${(error as Error).message}`, value: null };
    return { ok: false, problems: [problem], message: `Payload validation failed: ${problem.field}: ${problem.message}` };
  }
  // Defaults are written into a copy: the request body stays as it was sent.
  const copy = structuredClone(payload);
  if (validate(copy)) return { ok: true, payload: copy };
  const problems = (validate.errors ?? []).slice(0, MAX_PROBLEMS).map((e) => problemOf(e, copy));
  const listed = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  const more = (validate.errors?.length ?? 0) > MAX_PROBLEMS ? `; and ${validate.errors!.length - MAX_PROBLEMS} more` : '';
  return { ok: false, problems, message: `Payload validation failed: ${listed}${more}` };
}

async function validatorOf(workflow: ValidatedWorkflow, schema: Record<string, unknown>): Promise<ValidateFunction> {
  const key = `${workflow._id}:${workflow.version ?? JSON.stringify(schema)}`;
  const cached = cache.get(key);
  if (cached) {
    // Most recently used last, so the oldest is evicted first.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  // Own instance per schema: ajv keeps every schema it compiled (and refuses a second one with
  // the same $id), so a shared instance would grow, and fail, with each new workflow version.
  const validate = (await newAjv({ useDefaults: true, logger: false })).compile(schema);
  cache.set(key, validate);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return validate;
}

function problemOf(error: ErrorObject, payload: unknown): PayloadProblem {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const value = segments.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    payload,
  );
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const path = [...segments, ...(missing === undefined ? [] : [missing])];
  return {
    field: path.length > 0 ? path.join('.') : 'root',
    message: error.message ?? 'is not valid',
    value: missing === undefined ? value : undefined,
  };
}
