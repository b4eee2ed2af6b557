import type { BlockMark, BlockNode } from './document.ts';
import { variableTemplate } from './expressions.ts';
import { attrUrl, liquidText, type NodeRenderer, type RenderContext } from './context.ts';
import { cssValue, escapeHtml, styleOf } from './html.ts';

// Inline content: text with its marks, variables (rendered as text, as the reference turns them
// into text nodes) and line breaks. Whatever a template renders is text here: escaped.

/** An all-whitespace text keeps its width, as the reference's renderer does. */
const visible = (html: string) => (html !== '' && html.trim() === '' ? '&nbsp;'.repeat(html.length) : html);

// The reference applies underline, bold, italic, textStyle, link in that order, any other mark first.
const MARK_ORDER = ['underline', 'bold', 'italic', 'textStyle', 'link'];
const rank = (mark: BlockMark) => MARK_ORDER.indexOf(mark.type);

const CODE_STYLE = styleOf({
  'background-color': '#f3f4f6',
  'border-radius': '4px',
  padding: '2px 4px',
  'font-family': 'monospace',
  'font-size': '90%',
});
const LINK_STYLE = styleOf({ color: '#111827', 'text-decoration': 'underline', 'font-weight': 500 });

function withMark(html: string, mark: BlockMark, context: RenderContext): string {
  switch (mark.type) {
    case 'bold':
      return `<strong>${html}</strong>`;
    case 'italic':
      return `<em>${html}</em>`;
    case 'underline':
      return `<u>${html}</u>`;
    case 'strike':
      return `<s>${html}</s>`;
    case 'code':
      return `<code${CODE_STYLE}>${html}</code>`;
    case 'textStyle': {
      const color = cssValue(mark.attrs?.color, '');
      return color ? `<span${styleOf({ color })}>${html}</span>` : html;
    }
    case 'link': {
      const href = attrUrl(context, { type: 'link', attrs: mark.attrs }, 'href', 'isUrlVariable', 'link');
      if (href === undefined) return html;
      const target = typeof mark.attrs?.target === 'string' ? mark.attrs.target : '_blank';
      return `<a href="${escapeHtml(href)}" target="${escapeHtml(target)}" rel="noopener noreferrer nofollow"${LINK_STYLE}>${html}</a>`;
    }
    default:
      throw new Error(`Mark type "${mark.type}" is not supported.`);
  }
}

function marked(html: string, node: BlockNode, context: RenderContext): string {
  const marks = [...(node.marks ?? [])].sort((a, b) => rank(a) - rank(b));
  return marks.reduce((inner, mark) => withMark(inner, mark, context), html);
}

export const text: NodeRenderer = (node, context) => marked(visible(escapeHtml(liquidText(context, node.text ?? ''))), node, context);

export const variable: NodeRenderer = (node, context) => {
  // The layout's slot: the step's HTML, already rendered and not to be escaped again.
  if (node.attrs?.id === 'content' && context.content !== undefined) return context.content;
  return marked(escapeHtml(liquidText(context, variableTemplate(node.attrs))), node, context);
};

export const hardBreak: NodeRenderer = () => '<br>';
