import { Liquid } from 'liquidjs';

// The one Liquid engine of the service. It reads the Liquid in a control value without rendering
// it (which variables it names, or why it does not parse: unknown filters fail the parse, which
// is how a bad filter is found), and renders templates against a step's variables.

const liquid = new Liquid({ strictFilters: true });

export type TemplateReading =
  | { ok: true; variables: (string | number)[][] }
  | { ok: false; kind: 'filter' | 'syntax'; message: string };

export function readTemplate(template: string): TemplateReading {
  if (!template.includes('{{') && !template.includes('{%')) return { ok: true, variables: [] };
  try {
    const segments = liquid.globalVariableSegmentsSync(liquid.parse(template));
    // A dynamic index (`payload.items[payload.i]`) ends the path there.
    const variables = segments.map((path) => {
      const end = path.findIndex((segment) => typeof segment !== 'string' && typeof segment !== 'number');
      return (end < 0 ? path : path.slice(0, end)) as (string | number)[];
    });
    return { ok: true, variables };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: /undefined filter/.test(message) ? 'filter' : 'syntax', message };
  }
}

/** Renders a template; text without Liquid is returned as it is, without parsing. */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  if (!template.includes('{{') && !template.includes('{%')) return template;
  return liquid.parseAndRenderSync(template, variables);
}

/** Every string of a control object with its dotted path, leaving out the JSON-logic `skip`. */
export function templateStrings(values: Record<string, unknown>, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(values)) {
    if (prefix === '' && key === 'skip') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.push([path, value]);
    else if (value && typeof value === 'object') out.push(...templateStrings(value as Record<string, unknown>, path));
  }
  return out;
}
