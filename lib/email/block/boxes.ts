import { expand } from './conditions.ts';
import type { NodeRenderer } from './context.ts';
import { alignment, attributes, boxTable, cssValue, numberAttr, styleOf } from './html.ts';

// Boxes that lay blocks out: a section (a padded, bordered, coloured box) and columns side by
// side. Columns stack on narrow screens through the `tab-col-full` class, whose rule the whole
// document's <style> carries (page.ts), as the reference's renderer does.

const px = (value: unknown, fallback: number) => `${numberAttr(value, fallback)}px`;

const BORDER_STYLES = new Set(['solid', 'dashed', 'dotted', 'double']);
const borderStyleOf = (value: unknown) => (typeof value === 'string' && BORDER_STYLES.has(value) ? value : 'solid');

export const section: NodeRenderer = (node, context) => {
  const a = node.attrs ?? {};
  const side = (name: string, defaults: [number, number, number, number]) =>
    ['Top', 'Right', 'Bottom', 'Left'].map((s, i) => px(a[`${name}${s}`], defaults[i]!)).join(' ');
  const borderWidth = numberAttr(a.borderWidth, 0);
  const cell = styleOf({
    'background-color': cssValue(a.backgroundColor, '#ffffff'),
    'border-radius': px(a.borderRadius, 6),
    border: borderWidth > 0 ? `${borderWidth}px ${borderStyleOf(a.borderStyle)} ${cssValue(a.borderColor, '#e2e2e2')}` : undefined,
    padding: side('padding', [8, 8, 8, 8]),
    'text-align': alignment(a.textAlign ?? a.align, 'left'),
  });
  return boxTable(
    context.children(node, context),
    { align: alignment(a.align, 'left'), style: cell },
    styleOf({ margin: side('margin', [0, 0, 10, 0]) }),
  );
};

export const columns: NodeRenderer = (node, context) => {
  const gap = numberAttr(node.attrs?.gap, 8);
  const cols = expand(node.content ?? [], context);
  // A column's width is a percentage, or 'auto': the auto columns share what the others leave.
  const fixed = cols.map(({ node: col }) => {
    const width = numberAttr(col.attrs?.width, Number.NaN);
    return Number.isNaN(width) || width <= 0 ? undefined : width;
  });
  const taken = fixed.reduce<number>((sum, w) => sum + (w ?? 0), 0);
  const autos = fixed.filter((w) => w === undefined).length;
  const share = autos > 0 ? Math.max(0, 100 - taken) / autos : 0;
  const cells = cols
    .map(({ node: col, context: colContext }, i) => {
      const width = `${Number((fixed[i] ?? share).toFixed(2))}%`;
      const valign = ['top', 'middle', 'bottom'].includes(String(col.attrs?.verticalAlign)) ? String(col.attrs?.verticalAlign) : 'top';
      const style = styleOf({
        width,
        'vertical-align': valign,
        'padding-left': i === 0 ? undefined : `${gap / 2}px`,
        'padding-right': i === cols.length - 1 ? undefined : `${gap / 2}px`,
      });
      return `<td class="tab-col-full"${attributes({ width, valign })}${style}>${colContext.children(col, colContext)}</td>`;
    })
    .join('');
  return (
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"' +
    `${styleOf({ 'margin-bottom': px(node.attrs?.marginBottom, 10) })}>` +
    `<tbody><tr class="tab-row-full">${cells}</tr></tbody></table>`
  );
};
