// The pieces of email-client-safe HTML the block renderers share: escaping, style attributes built
// from the document's attrs (only plain CSS values get in), and the presentation table that mail
// clients lay out reliably where they ignore a <div>'s width or margin.

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A CSS value from a document attr (a colour, a length): anything that could end the declaration or load something is refused. */
const PLAIN_CSS = /^[#\w\s%.,()+-]+$/;
const LOADS = /url\(|expression\(|image-set\(/i;

export function cssValue(value: unknown, fallback: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '' || !PLAIN_CSS.test(value) || LOADS.test(value)) return fallback;
  return value.trim();
}

/** A number attr (the editor stores some as strings), else the default. */
export function numberAttr(value: unknown, fallback: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : fallback;
}

const ALIGNMENTS = new Set(['left', 'center', 'right', 'justify']);

export const alignment = (value: unknown, fallback: string): string =>
  typeof value === 'string' && ALIGNMENTS.has(value) ? value : fallback;

/** `style="…"` from declarations; undefined and empty values are left out. */
export function styleOf(declarations: Record<string, string | number | undefined>): string {
  const css = Object.entries(declarations)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  return css === '' ? '' : ` style="${escapeHtml(css)}"`;
}

/** Attributes from a record; undefined values are left out, the rest escaped. */
export function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join('');
}

/** A one-cell, full-width presentation table around `inner`. */
export function boxTable(inner: string, cell: { align?: string; style?: string } = {}, tableStyle = ''): string {
  return (
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"${tableStyle}><tbody><tr>` +
    `<td${attributes({ align: cell.align })}${cell.style ?? ''}>${inner}</td></tr></tbody></table>`
  );
}
