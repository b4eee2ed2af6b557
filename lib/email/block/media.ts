import type { BlockNode } from './document.ts';
import { attrText, attrUrl, type NodeRenderer, type RenderContext } from './context.ts';
import { alignment, attributes, boxTable, cssValue, escapeHtml, numberAttr, styleOf } from './html.ts';

// Buttons and images. Their URLs are rendered and pass safeUrl (context.ts): a `javascript:` or
// `data:` link is dropped (the button stays, as text without a link), an image whose source may
// not load is not drawn. Aligned by a table cell, as mail clients honour `align` there.

const RADII: Record<string, string> = { smooth: '6px', round: '9999px' };

/** The cell a button, an image or a logo sits in: the space below it. */
const BLOCK_CELL = styleOf({ padding: '0 0 10px 0' });

export const button: NodeRenderer = (node, context) => {
  const a = node.attrs ?? {};
  const color = cssValue(a.buttonColor, '#000000');
  const outline = a.variant === 'outline';
  const href = attrUrl(context, node, 'url', 'isUrlVariable', 'link');
  const pad = (side: string, base: number, extra = 0) => `${numberAttr(a[`padding${side}`], base) + extra}px`;
  const style = styleOf({
    display: a.width === 'full' ? 'block' : 'inline-block',
    'background-color': outline ? 'transparent' : color,
    color: cssValue(a.textColor, outline ? color : '#ffffff'),
    border: `2px solid ${color}`,
    'border-radius': RADII[String(a.borderRadius)] ?? '0px',
    padding: `${pad('Top', 10, 2)} ${pad('Right', 32)} ${pad('Bottom', 10, 2)} ${pad('Left', 32)}`,
    'font-size': '14px',
    'font-weight': 500,
    'line-height': '100%',
    'text-decoration': 'none',
    'text-align': 'center',
  });
  const label = escapeHtml(attrText(context, node, 'text', 'isTextVariable') ?? 'Button');
  const link = href === undefined ? `<span${style}>${label}</span>` : `<a href="${escapeHtml(href)}" target="_blank"${style}>${label}</a>`;
  return boxTable(link, { align: alignment(a.alignment, 'left'), style: BLOCK_CELL });
};

/** A px size attr ('auto' or a number) as an attribute value, or undefined for auto. */
const pixels = (value: unknown): number | undefined => {
  const n = numberAttr(value, Number.NaN);
  return Number.isNaN(n) || n <= 0 ? undefined : Math.round(n);
};

function img(
  context: RenderContext,
  node: BlockNode,
  size: { width?: number; height?: number },
  style: Record<string, string | undefined>,
): string | undefined {
  const src = attrUrl(context, node, 'src', 'isSrcVariable', 'image');
  if (src === undefined) return undefined;
  const tag = `<img${attributes({
    src,
    alt: typeof node.attrs?.alt === 'string' ? node.attrs.alt : '',
    title: typeof node.attrs?.title === 'string' && node.attrs.title !== '' ? node.attrs.title : undefined,
    width: size.width,
    height: size.height,
  })}${styleOf({ border: '0', outline: 'none', 'text-decoration': 'none', ...style })}>`;
  const href = attrUrl(context, node, 'externalLink', 'isExternalLinkVariable', 'link');
  return href === undefined ? tag : `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${tag}</a>`;
}

export const image: NodeRenderer = (node, context) => {
  const width = pixels(node.attrs?.width);
  const height = pixels(node.attrs?.height);
  const tag = img(
    context,
    node,
    { width, height },
    {
      display: 'block',
      'max-width': '100%',
      width: width === undefined ? '100%' : `${width}px`,
      height: height === undefined ? 'auto' : `${height}px`,
      'border-radius': `${numberAttr(node.attrs?.borderRadius, 0)}px`,
    },
  );
  return tag === undefined ? '' : boxTable(tag, { align: alignment(node.attrs?.alignment, 'center'), style: BLOCK_CELL });
};

export const inlineImage: NodeRenderer = (node, context) => {
  const width = pixels(node.attrs?.width) ?? 20;
  const height = pixels(node.attrs?.height) ?? 20;
  return (
    img(context, node, { width, height }, { display: 'inline', 'vertical-align': 'middle', width: `${width}px`, height: `${height}px` }) ??
    ''
  );
};

const LOGO_SIZES: Record<string, number> = { sm: 40, md: 48, lg: 64 };

export const logo: NodeRenderer = (node, context) => {
  const size = LOGO_SIZES[String(node.attrs?.size ?? 'md')] ?? pixels(node.attrs?.size) ?? 48;
  const tag = img(context, node, { width: size, height: size }, { display: 'block', width: `${size}px`, height: `${size}px` });
  return tag === undefined ? '' : boxTable(tag, { align: alignment(node.attrs?.alignment, 'left'), style: BLOCK_CELL });
};
