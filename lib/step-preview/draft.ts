import { payloadExample } from '../workflows/payload-example.ts';
import type { PreviewDraftStepInput, StepPreview } from '../workflows/step-schemas.ts';
import { previewExample, renderPreview } from './render.ts';

// The preview of a step not saved yet (an editor's draft, before its workflow's first save): the
// same rendering as a saved step's (render.ts), from the kind, values and payload schema the
// request carries instead of stored ones. It reads and writes nothing of the environment.

export async function previewDraftStep(input: PreviewDraftStepInput): Promise<StepPreview> {
  const sent = input.previewPayload ?? {};
  const schema = input.payloadSchema ?? null;
  // Without a schema there are no saved templates to draw an example from: the payload is what is sent.
  const example = previewExample(schema ? payloadExample({ payloadSchema: schema, steps: [] }) : null, sent);
  const preview = await renderPreview(input.type, input.controlValues ?? {}, example);
  return { result: { type: input.type, ...(preview && { preview }) }, previewPayloadExample: example, schema };
}
