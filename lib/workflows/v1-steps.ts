import { ValidationError } from '../errors.ts';
import type { ReadStep } from './build.ts';
import { CONTROL_SCHEMAS } from './controls.ts';
import type { StoredStep } from './model.ts';
import { slugify } from './slug.ts';
import { readTemplates } from './templates.ts';
import type { V1MetadataInput, V1StepInput, V1StepType, V1TemplateInput } from './v1-schemas.ts';
import { timedDigestCron } from './v1-timed-digest.ts';

// v1 steps as the one stored model holds them: the message template (`template`) and the
// digest or delay settings (`metadata`) become the step's control values, which the pipeline
// runs and the v2 view shows; `filters`, `active`, `shouldStopOnFail` and `replyCallback` are
// kept as they are. A v1 step is sent whole, so what it leaves out takes its default (active,
// no filters). Steps are matched to the stored ones by `_templateId` (or `_id`), as the
// reference matches them, and keep their ids. What cannot run as sent is a 422 naming the field.

const LABELS: Record<V1StepType, string> = {
  in_app: 'In-App',
  email: 'Email',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
  digest: 'Digest',
  delay: 'Delay',
};

/** The v1 field each control value comes from, to name a refused one. */
const SOURCES: Record<string, string> = {
  body: 'template.content',
  subject: 'template.subject',
  avatar: 'template.actor.data',
  redirect: 'template.cta.data',
  primaryAction: 'template.cta.action.buttons',
  secondaryAction: 'template.cta.action.buttons',
  layoutId: 'template.layoutId',
  senderName: 'template.senderName',
  amount: 'metadata.amount',
  unit: 'metadata.unit',
  lookBackWindow: 'metadata.backoffAmount',
  cron: 'metadata.timed',
  dynamicKey: 'metadata.delayPath',
  digestKey: 'metadata.digestKey',
};
const sourceOf = (type: V1StepType, control: string) =>
  type === 'push' && control === 'subject' ? 'template.title' : (SOURCES[control] ?? 'template');

const STEP_ID = /^[a-zA-Z0-9_-]{1,128}$/;

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

class StepError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly value: unknown,
  ) {
    super(message);
  }
}

function textContent(template: V1TemplateInput): string {
  if (Array.isArray(template.content))
    throw new StepError('template.content', `content must be text for a ${template.type} step`, template.content);
  return template.content ?? '';
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The reference's visual-editor blocks as the HTML body they stand for. */
function blocksHtml(blocks: Extract<V1TemplateInput['content'], unknown[]>): string {
  return blocks
    .map((block) => {
      const align = block.styles?.textAlign ? ` style="text-align:${block.styles.textAlign}"` : '';
      const inner = block.type === 'button' ? `<a href="${attribute(block.url ?? '')}">${block.content}</a>` : block.content;
      return `<div${align}>${inner}</div>`;
    })
    .join('\n');
}

function inAppControls(template: V1TemplateInput): Record<string, unknown> {
  const { cta, actor } = template;
  const action = (type: 'primary' | 'secondary') => {
    const button = cta?.action?.buttons?.find((b) => b.type === type);
    if (!button) return undefined;
    const redirect = defined({ url: button.url, target: button.target });
    return defined({ label: button.content, redirect: Object.keys(redirect).length > 0 ? redirect : undefined });
  };
  return defined({
    body: textContent(template),
    subject: template.subject,
    avatar: actor?.type === 'system_custom' && actor.data ? actor.data : undefined,
    redirect: cta?.data?.url ? defined({ url: cta.data.url, target: cta.data.target }) : undefined,
    primaryAction: action('primary'),
    secondaryAction: action('secondary'),
  });
}

function emailControls(template: V1TemplateInput): Record<string, unknown> {
  const { content } = template;
  return defined({
    subject: template.subject ?? '',
    body: Array.isArray(content) ? blocksHtml(content) : (content ?? ''),
    editorType: 'html',
    layoutId: template.layoutId,
    // Not an email control of the v2 API, but the send step takes the step's sender name.
    senderName: template.senderName,
  });
}

function digestControls(metadata: V1MetadataInput): Record<string, unknown> {
  if (metadata.type === 'timed') {
    const timed = timedDigestCron(metadata);
    if ('error' in timed) throw new StepError(timed.field, timed.error, metadata.timed ?? null);
    return defined({ type: 'timed', cron: timed.cron, digestKey: metadata.digestKey });
  }
  if (metadata.type === 'scheduled') throw new StepError('metadata.type', 'a digest is regular, backoff or timed', metadata.type);
  const backoff = metadata.type === 'backoff' || metadata.backoff === true;
  if (backoff && (metadata.backoffAmount === undefined || metadata.backoffUnit === undefined)) {
    throw new StepError(
      'metadata.backoffAmount',
      'backoffAmount and backoffUnit are required for a backoff digest',
      metadata.backoffAmount ?? null,
    );
  }
  return defined({
    type: 'regular',
    amount: metadata.amount,
    unit: metadata.unit,
    digestKey: metadata.digestKey,
    lookBackWindow: backoff ? { amount: metadata.backoffAmount, unit: metadata.backoffUnit } : undefined,
  });
}

function delayControls(metadata: V1MetadataInput): Record<string, unknown> {
  if (metadata.type === 'scheduled') {
    // The payload names the time: the pipeline's dynamic delay reads it at that path.
    if (!metadata.delayPath)
      throw new StepError('metadata.delayPath', 'delayPath is required for a scheduled delay', metadata.delayPath ?? null);
    return { type: 'dynamic', dynamicKey: metadata.delayPath };
  }
  if (metadata.type !== undefined && metadata.type !== 'regular') {
    throw new StepError('metadata.type', 'a delay is regular or scheduled', metadata.type);
  }
  return defined({ type: 'regular', amount: metadata.amount, unit: metadata.unit });
}

function controlsOf(step: V1StepInput): Record<string, unknown> {
  const { template } = step;
  switch (template.type) {
    case 'in_app':
      return inAppControls(template);
    case 'email':
      return emailControls(template);
    case 'sms':
    case 'chat':
      return { body: textContent(template) };
    case 'push':
      return defined({ subject: template.title, body: textContent(template) });
    case 'digest':
      return digestControls(step.metadata ?? {});
    case 'delay':
      return delayControls(step.metadata ?? {});
  }
}

/** The control values, checked as the v2 API checks them, with the templates read. */
function checkedControls(step: V1StepInput): Pick<ReadStep, 'controlValues' | 'templateReadings'> {
  const type = step.template.type;
  const controls = controlsOf(step);
  const parsed = CONTROL_SCHEMAS[type].safeParse(controls);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const control = String(issue.path[0] ?? '');
    throw new StepError(sourceOf(type, control), issue.message, control ? controls[control] : controls);
  }
  // Extras the send step reads but the control schema does not list (the sender name) are kept.
  const controlValues = { ...controls, ...(parsed.data as Record<string, unknown>) };
  const templateReadings = readTemplates(controlValues);
  const broken = templateReadings.find((reading) => !reading.ok);
  if (broken && !broken.ok) {
    const control = broken.field.split('.')[0]!;
    const source = sourceOf(type, control);
    throw new StepError(
      source,
      `${source.split('.').pop()} is not a template this service renders (Liquid): ${broken.message}`,
      controlValues[control],
    );
  }
  return { controlValues, templateReadings };
}

/**
 * The stepIds of the sent steps: the one sent, else the matched step's, else the v1 `uuid`, else
 * from the name; made unique against each other and against stored steps they do not match (a
 * new step must not take over a removed step's id through its stepId).
 */
function stepIdsOf(
  inputs: readonly V1StepInput[],
  matches: readonly (StoredStep | undefined)[],
  existing: readonly StoredStep[],
): string[] {
  const used = new Set<string>(inputs.flatMap((input) => (input.stepId ? [input.stepId] : [])));
  return inputs.map((input, index) => {
    if (input.stepId) return input.stepId;
    const match = matches[index];
    const base =
      match?.stepId ?? (input.uuid && STEP_ID.test(input.uuid) ? input.uuid : slugify(nameOf(input)).slice(0, 120) || input.template.type);
    let stepId = base;
    for (let n = 2; used.has(stepId) || existing.some((s) => s.stepId === stepId && s !== match); n++) stepId = `${base}-${n}`;
    used.add(stepId);
    return stepId;
  });
}

function nameOf(step: V1StepInput): string {
  return step.name?.trim() || step.template.name?.trim() || LABELS[step.template.type];
}

/** The sent v1 steps as the steps `buildSteps` stores; 422 naming `steps.<n>.<field>` otherwise. */
export function readV1Steps(inputs: readonly V1StepInput[], existing: readonly StoredStep[] = []): ReadStep[] {
  const matches = inputs.map((input) => {
    const id = input._templateId ?? input._id;
    return id === undefined ? undefined : existing.find((step) => step._id === id);
  });
  const stepIds = stepIdsOf(inputs, matches, existing);
  return inputs.map((input, index) => {
    try {
      const match = matches[index];
      return {
        ...(match && { _id: match._id }),
        stepId: stepIds[index]!,
        name: nameOf(input),
        type: input.template.type,
        ...checkedControls(input),
        legacy: {
          active: input.active ?? true,
          filters: input.filters ?? [],
          shouldStopOnFail: input.shouldStopOnFail ?? false,
          ...(input.replyCallback && { replyCallback: input.replyCallback }),
        },
      } as ReadStep;
    } catch (error) {
      if (error instanceof StepError) throw ValidationError.forField(`steps.${index}.${error.field}`, error.message, error.value);
      throw error;
    }
  });
}
