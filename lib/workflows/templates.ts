import { Liquid } from 'liquidjs';
import type { ReadStep } from './build.ts';
import type { ParsedTemplate, TemplateReading, VariablePath } from './model.ts';
import type { StepInput } from './schemas.ts';

// The one Liquid engine of the service. It reads the Liquid in a step's control values without
// rendering it (which variables it names, or why it does not parse: unknown filters fail the
// parse, which is how a bad filter is found) when an author sends the step, and renders templates
// against a step's variables when it runs. Nothing else parses: views, sync and PATCH use the
// stored readings (model.ts `templateReadings`), so their bundles hold no template engine.

const liquid = new Liquid({ strictFilters: true });

function readTemplate(template: string): ParsedTemplate {
  if (!template.includes('{{') && !template.includes('{%')) return { ok: true, variables: [] };
  try {
    const segments = liquid.globalVariableSegmentsSync(liquid.parse(template));
    // A dynamic index (`payload.items[payload.i]`) ends the path there.
    const variables = segments.map((path) => {
      const end = path.findIndex((segment) => typeof segment !== 'string' && typeof segment !== 'number');
      return (end < 0 ? path : path.slice(0, end)) as VariablePath;
    });
    return { ok: true, variables };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: /undefined filter/.test(message) ? 'filter' : 'syntax', message };
  }
}

/** The readings of a step's control values: those naming no variable and parsing are left out. */
export function readTemplates(controlValues: Record<string, unknown>): TemplateReading[] {
  const readings: TemplateReading[] = [];
  for (const [field, template] of templateStrings(controlValues)) {
    const reading = readTemplate(template);
    if (!reading.ok || reading.variables.length > 0) readings.push({ field, ...reading });
  }
  return readings;
}

/** Steps as an author sent them, with their templates read: what `buildSteps` stores. */
export function readSteps(steps: readonly StepInput[]): ReadStep[] {
  return steps.map((step) => ({ ...step, templateReadings: readTemplates(step.controlValues) }));
}

/** Renders a template; text without Liquid is returned as it is, without parsing. */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  if (!template.includes('{{') && !template.includes('{%')) return template;
  return liquid.parseAndRenderSync(template, variables);
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
