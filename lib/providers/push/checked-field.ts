import type { ValueCheck } from '../credential-schema.ts';

/** A credential check passed when `parse` accepts the value (it throws with the reason otherwise). */
export function parseCheck(parse: (value: unknown) => unknown): ValueCheck {
  return (value) => {
    try {
      parse(value);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
}
