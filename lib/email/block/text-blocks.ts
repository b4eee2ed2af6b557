import { renderHtmlTemplate } from '../../workflows/templates.ts';
import { variableTemplate } from './expressions.ts';
import type { NodeRenderer, Place, RenderContext } from './context.ts';
import type { BlockNode } from './document.ts';
import { alignment, attributes, boxTable, cssValue, numberAttr, styleOf } from './html.ts';

// Blocks of text: paragraphs, headings, the footer, quotes, lists, the divider, the spacer and a
// block of the author's own HTML. Sizes and colours are the reference renderer's.

/** A paragraph's bottom margin, dropped before a spacer and at the end of a box, as the reference does. */
const bottomMargin = (place: Place, margin: string) => (place.next === 'spacer' || (place.last && place.parent !== 'doc') ? '0' : margin);

const empty = (html: string) => (html === '' ? '&nbsp;' : html);

/** A paragraph holding only the layout's slot (the reference's EMPTY_LAYOUT has one). */
const holdsOnlySlot = (node: BlockNode, context: RenderContext) =>
  context.content !== undefined &&
  node.content?.length === 1 &&
  node.content[0]!.type === 'variable' &&
  node.content[0]!.attrs?.id === 'content';

export const paragraph: NodeRenderer = (node, context, place) =>
  // The step's body is blocks (paragraphs, tables), which a <p> cannot hold: a client's parser
  // would close the <p> before them. The slot's paragraph is drawn as a <div> with its alignment.
  holdsOnlySlot(node, context)
    ? `<div${styleOf({ 'text-align': alignment(node.attrs?.textAlign, 'left') })}>${context.content}</div>`
    : `<p${styleOf({
        'font-size': '14px',
        'line-height': '20px',
        margin: `0 0 ${bottomMargin(place, '10px')} 0`,
        color: place.parent === 'listItem' ? undefined : '#374151',
        'text-align': alignment(node.attrs?.textAlign, 'left'),
      })}>${empty(context.children(node, context))}</p>`;

const HEADINGS = {
  1: { 'font-size': '30px', 'line-height': '40px' },
  2: { 'font-size': '24px', 'line-height': '30px' },
  3: { 'font-size': '18px', 'line-height': '26px' },
} as const;

export const heading: NodeRenderer = (node, context, place) => {
  const level = Math.min(3, Math.max(1, Math.trunc(numberAttr(node.attrs?.level, 1)))) as 1 | 2 | 3;
  return `<h${level}${styleOf({
    ...HEADINGS[level],
    'font-weight': 600,
    color: '#111827',
    margin: `0 0 ${bottomMargin(place, '12px')} 0`,
    'text-align': alignment(node.attrs?.textAlign, 'left'),
  })}>${empty(context.children(node, context))}</h${level}>`;
};

export const footer: NodeRenderer = (node, context, place) =>
  `<p${styleOf({
    'font-size': '13px',
    'line-height': '20px',
    color: '#64748B',
    margin: `0 0 ${bottomMargin(place, '10px')} 0`,
    'text-align': alignment(node.attrs?.textAlign, 'left'),
  })}>${empty(context.children(node, context))}</p>`;

const BLOCKQUOTE_STYLE = styleOf({ margin: '0 0 10px 0', padding: '0 0 0 12px', 'border-left': '3px solid #d1d5db', color: '#374151' });

export const blockquote: NodeRenderer = (node, context) => `<blockquote${BLOCKQUOTE_STYLE}>${context.children(node, context)}</blockquote>`;

const list = (tag: 'ul' | 'ol', listStyle: string): NodeRenderer => {
  const style = styleOf({ margin: '0 0 10px 0', 'padding-left': '26px', 'list-style-type': listStyle });
  return (node, context) => {
    const start = numberAttr(node.attrs?.start, 1);
    const startAttr = tag === 'ol' ? attributes({ start: start === 1 ? undefined : start }) : '';
    return `<${tag}${startAttr}${style}>${context.children(node, context)}</${tag}>`;
  };
};

export const bulletList = list('ul', 'disc');
export const orderedList = list('ol', 'decimal');

export const listItem: NodeRenderer = (node, context) => {
  const style = styleOf({
    margin: '0 0 4px 0',
    'padding-left': '6px',
    color: cssValue(node.attrs?.color, '#374151'),
    'font-size': '14px',
    'line-height': '20px',
  });
  return `<li${style}>${context.children(node, context)}</li>`;
};

const RULE = `<hr${styleOf({ width: '100%', border: 'none', 'border-top': '1px solid #eaeaea', margin: '32px 0' })}>`;

export const horizontalRule: NodeRenderer = () => RULE;

export const spacer: NodeRenderer = (node) => {
  const height = `${Math.max(0, numberAttr(node.attrs?.height, 8))}px`;
  return boxTable('&nbsp;', { style: styleOf({ height, 'line-height': height, 'font-size': '1px' }) });
};

/**
 * The author's own HTML: its pieces joined (a variable node as its Liquid output), rendered as an
 * email body's HTML is (what Liquid inserts is escaped), with any <!DOCTYPE>, <head> and comments
 * dropped since it goes inside the email. The sanitizer sees it with the rest of the email.
 */
export const htmlCodeBlock: NodeRenderer = (node, context) => {
  const source = (node.content ?? [])
    .map((child) => (child.type === 'variable' ? variableTemplate(child.attrs) : child.type === 'text' ? (child.text ?? '') : ''))
    .join('');
  const html = renderHtmlTemplate(context.rewrite(source), context.variables)
    .replace(/<!doctype[^>]*>/gi, '')
    .replace(/<head[\s>][\s\S]*?<\/head>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  return boxTable(html);
};
