import { FREE_OBJECT, SUBSCRIBER, type Schema } from '../workflows/variables.ts';

// What a layout's Liquid may name: the subscriber, the trigger's context, the environment's
// variables and the `content` slot. No payload: a layout is shared by every workflow, whose
// payloads differ (the reference: "Payload variables are not supported in layouts").

export const LAYOUT_VARIABLES: Schema = {
  type: 'object',
  properties: { subscriber: SUBSCRIBER, content: { type: 'string' }, context: FREE_OBJECT, env: FREE_OBJECT },
  additionalProperties: false,
};

/** The layout's variables out of a step's (lib/pipeline/variables.ts). This service keeps no environment variables: `env` is empty. */
export function layoutVariables(stepVariables: Record<string, unknown>, content: string): Record<string, unknown> {
  return { subscriber: stepVariables.subscriber, context: stepVariables.context ?? {}, env: {}, content };
}
