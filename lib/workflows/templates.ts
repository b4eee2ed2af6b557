import type { NumberToken, Output, QuotedToken, Template } from 'liquidjs';
import { blockDocumentOf } from '../email/block/document.ts';
import { documentTemplates } from '../email/block/expressions.ts';
import { lazy } from '../lazy.ts';
import type { ReadStep } from './build.ts';
import { liquidFilters, loadFilters, printValue, toSentenceArgsIssue, type FilterArgument } from './liquid-filters.ts';
import type { ParsedTemplate, TemplateReading, VariablePath } from './model.ts';
import type { StepInput } from './schemas.ts';

// The one Liquid module of the service. It reads the Liquid in a step's control values without
// rendering it (which variables it names, or why it does not parse: unknown filters fail the
// parse, which is how a bad filter is found) when an author sends the step, and renders templates
// against a step's variables when it runs. Nothing else parses: views, sync and PATCH use the
// stored readings (model.ts `templateReadings`), so their bundles hold no template engine.
// liquidjs is a lazy package (lib/lazy.ts, docs/performance.md "Small functions"): the use case
// or step that reads or renders templates first does `await loadTemplates()`, then calls the
// synchronous functions below. Text without Liquid never needs the engine.

// What one template may cost. Authors' templates run in the API (step and layout previews) and in
// the delivery consumers, and Liquid alone can loop without end (`{% for x in (1..100000000) %}`):
// without limits one template holds its Lambda until the timeout and can exhaust its memory. Real
// messages are far below each limit (mail clients clip an email at about 100 KB); a template over
// one fails with TemplateLimitError.
/** Characters of one template: more than a request body may carry (512 KB), so a guard only. */
export const TEMPLATE_PARSE_LIMIT = 1_000_000;
/** Milliseconds one render may take: a message renders in a few; room is left for a busy CPU. */
export const TEMPLATE_RENDER_LIMIT_MS = 300;
/**
 * What one render may build, as liquidjs counts it: the characters of the strings and the items
 * of the lists its filters, ranges and escaping make (about 8 MB of text at most).
 */
export const TEMPLATE_MEMORY_LIMIT = 4_000_000;
const limits = { parseLimit: TEMPLATE_PARSE_LIMIT, renderLimit: TEMPLATE_RENDER_LIMIT_MS, memoryLimit: TEMPLATE_MEMORY_LIMIT };

const engines = lazy('liquidjs', async () => {
  const [{ Liquid, Output, TokenKind, filters, toValueSync }] = await Promise.all([import('liquidjs'), loadFilters()]);
  // Both engines have the reference's filters (liquid-filters.ts) and print an object or an array as
  // it does, as single-quoted JSON.
  const liquid = new Liquid({ strictFilters: true, outputEscape: printValue, ...limits });

  // Email HTML renders every output HTML-escaped, so a payload value is text in the mail unless the
  // author writes `{{ payload.html | raw }}`. escape_once rather than escape: an output the author
  // already escaped (`| escape`) is not escaped twice.
  // (escape_once reads the render's memory limit from `this`.)
  const escapeOnce = filters.escape_once as (this: unknown, value: string) => string;
  function printHtml(this: unknown, value: unknown): string {
    return escapeOnce.call(this, printValue(value));
  }
  const htmlLiquid = new Liquid({ strictFilters: true, outputEscape: printHtml, ...limits });

  for (const [name, filter] of Object.entries(liquidFilters)) {
    liquid.registerFilter(name, filter);
    htmlLiquid.registerFilter(name, filter);
  }
  return { liquid, htmlLiquid, Output, TokenKind, toValueSync };
});

/** Loads the template engine (once): before any other function of this module reads or renders Liquid. */
export const loadTemplates = async (): Promise<void> => void (await engines.load());

const hasLiquid = (template: string) => template.includes('{{') || template.includes('{%');

function readTemplate(template: string): ParsedTemplate {
  if (!hasLiquid(template)) return { ok: true, variables: [] };
  const { liquid } = engines.get();
  try {
    const parsed = liquid.parse(template);
    const argIssue = filterArgsIssue(parsed);
    if (argIssue) return { ok: false, kind: 'filter', message: argIssue };
    const segments = liquid.globalVariableSegmentsSync(parsed);
    // A dynamic index (`payload.items[payload.i]`) ends the path there.
    const variables = segments.map((path) => {
      const end = path.findIndex((segment) => typeof segment !== 'string' && typeof segment !== 'number');
      return (end < 0 ? path : path.slice(0, end)) as VariablePath;
    });
    return { ok: true, variables };
  } catch (error) {
    const message = limitExceeded(error)?.message ?? (error instanceof Error ? error.message : String(error));
    return { ok: false, kind: /undefined filter/.test(message) ? 'filter' : 'syntax', message };
  }
}

/** The first filter call with wrong arguments in parsed templates (only `toSentence` checks its own). */
function filterArgsIssue(templates: Template[]): string | undefined {
  const { Output, toValueSync } = engines.get();
  for (const template of templates) {
    // A tag's children: the branches of an if, the body of a for, ...
    const children = template instanceof Output ? undefined : template.children?.(false, true);
    const issue = template instanceof Output ? outputArgsIssue(template) : children && filterArgsIssue(toValueSync(children));
    if (issue) return issue;
  }
  return undefined;
}

function outputArgsIssue(output: Output): string | undefined {
  const { TokenKind } = engines.get();
  const overDigestEvents = /^\s*steps\.[^.\s|]+\.events\s*(\||$)/.test(output.token.content);
  for (const filter of output.value.filters) {
    if (filter.name !== 'toSentence') continue;
    const args = filter.args.map((arg): FilterArgument => {
      if (Array.isArray(arg)) return { kind: 'other', value: arg[0] ?? '' };
      if (arg.kind === TokenKind.Quoted) return { kind: 'text', value: (arg as QuotedToken).content };
      if (arg.kind === TokenKind.Number) return { kind: 'number', value: (arg as NumberToken).content };
      return { kind: 'other', value: arg.getText() };
    });
    const issue = toSentenceArgsIssue(args, overDigestEvents);
    if (issue) return issue;
  }
  return undefined;
}

/**
 * A block-editor body (lib/email/block) is read as the templates its document holds (variable
 * nodes, show-if keys, repeats, Liquid in texts and links), not as JSON text; the first that does
 * not parse is the reading, since the body renders by its pieces.
 */
function readBody(body: string): ParsedTemplate {
  const parsed = blockDocumentOf(body);
  if (!parsed?.ok) return readTemplate(body);
  const variables: VariablePath[] = [];
  for (const template of documentTemplates(parsed.doc)) {
    const reading = readTemplate(template);
    if (!reading.ok) return reading;
    variables.push(...reading.variables);
  }
  return { ok: true, variables };
}

/** The readings of a step's control values: those naming no variable and parsing are left out. */
export function readTemplates(controlValues: Record<string, unknown>): TemplateReading[] {
  const readings: TemplateReading[] = [];
  for (const [field, template] of templateStrings(controlValues)) {
    const reading = field === 'body' ? readBody(template) : readTemplate(template);
    if (!reading.ok || reading.variables.length > 0) readings.push({ field, ...reading });
  }
  return readings;
}

/** Steps as an author sent them, with their templates read: what `buildSteps` stores. */
export function readSteps(steps: readonly StepInput[]): ReadStep[] {
  return steps.map((step) => ({ ...step, templateReadings: readTemplates(step.controlValues) }));
}

/** A template over one of the limits above: the author's to fix, so a 4xx or a failed job, never a fault. */
export class TemplateLimitError extends Error {
  constructor(readonly limit: 'length' | 'time' | 'memory') {
    super(
      limit === 'length'
        ? `Template is too long: over ${TEMPLATE_PARSE_LIMIT} characters`
        : limit === 'time'
          ? `Template took too long to render: over ${TEMPLATE_RENDER_LIMIT_MS} ms`
          : `Template builds too much to render: over ${TEMPLATE_MEMORY_LIMIT} characters or list items`,
    );
    this.name = 'TemplateLimitError';
  }
}

// liquidjs reports a limit by an AssertionError named for it, wrapped in a RenderError
// (`originalError`) when it happened inside a tag or an output.
const LIMIT_MESSAGES = { 'parse length': 'length', 'template render': 'time', 'memory alloc': 'memory' } as const;
const LIMIT_MESSAGE = /^(parse length|template render|memory alloc) limit exceeded/;

function limitExceeded(error: unknown): TemplateLimitError | undefined {
  for (let cause = error; cause instanceof Error; cause = (cause as { originalError?: unknown }).originalError) {
    const match = cause.name === 'AssertionError' ? LIMIT_MESSAGE.exec(cause.message) : null;
    if (match) return new TemplateLimitError(LIMIT_MESSAGES[match[1] as keyof typeof LIMIT_MESSAGES]);
  }
  return undefined;
}

function withinLimits<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw limitExceeded(error) ?? error;
  }
}

/** Renders a template; text without Liquid is returned as it is, without parsing. */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  return hasLiquid(template) ? withinLimits(() => engines.get().liquid.parseAndRenderSync(template, variables)) : template;
}

/** Renders an HTML template (an email body): what its outputs insert is HTML-escaped. */
export function renderHtmlTemplate(template: string, variables: Record<string, unknown>): string {
  return hasLiquid(template) ? withinLimits(() => engines.get().htmlLiquid.parseAndRenderSync(template, variables)) : template;
}

/** The value a Liquid expression names (`payload.items`, `steps.digest.events`), not rendered to text. */
export function evaluateExpression(expression: string, variables: Record<string, unknown>): unknown {
  return withinLimits(() => engines.get().liquid.evalValueSync(expression, variables));
}

/** Every string of a control object with its dotted path, leaving out the JSON-logic `skip`. */
function templateStrings(values: Record<string, unknown>, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(values)) {
    if (prefix === '' && key === 'skip') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.push([path, value]);
    else if (value && typeof value === 'object') out.push(...templateStrings(value as Record<string, unknown>, path));
  }
  return out;
}
