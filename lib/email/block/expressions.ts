import type { BlockNode } from './document.ts';

// The Liquid a block document holds, as the reference reads it (docs/content.md): a
// `variable` node is `{{ aliasFor or id }}` (with `| default` when it has a fallback), a
// `showIfKey` and a repeat's `each` are bare paths, and an attribute flagged `is*Variable` is a
// path rather than text. Inside a repeat, a path into the list (`payload.items.name`) or the
// editor's `current` alias names the item of the iteration: the renderer rewrites it to
// `payload.items[i].name`, and the readings (templates.ts) to the first item's path.

const LIQUID_BLOCK = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A bare path (`payload.show`) as a Liquid output; a value already holding Liquid is kept. */
export const asOutput = (value: string): string => (value.includes('{{') || value.includes('{%') ? value : `{{ ${value} }}`);

/** A repeat's `each` (or a showIfKey) as the path it names, braces removed. */
const bareExpression = (value: string): string => value.trim().replace(/^\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');

/** The Liquid a variable node stands for. */
export function variableTemplate(attrs: Record<string, unknown> | undefined): string {
  const path = String(attrs?.aliasFor || attrs?.id || '');
  const fallback = attrs?.fallback;
  if (typeof fallback === 'string' && fallback !== '') return `{{ ${path} | default: '${fallback.replace(/'/g, "\\'")}' }}`;
  return `{{ ${path} }}`;
}

/** An attribute's Liquid: a path when its `is*Variable` flag is set, else its text (which may hold Liquid). */
export function fieldTemplate(node: BlockNode, field: string, flag: string): string | undefined {
  const value = node.attrs?.[field];
  if (typeof value !== 'string' || value === '') return undefined;
  return node.attrs?.[flag] === true ? asOutput(value) : value;
}

export type Rewrite = (template: string) => string;

export const noRewrite: Rewrite = (template) => template;

/** The path a repeat (or `for`) node runs over, as the enclosing repeats' rewrites leave it. */
export const repeatEach = (node: BlockNode, rewrite: Rewrite): string =>
  bareExpression(rewrite(asOutput(bareExpression(String(node.attrs?.each || 'items')))));

/**
 * For iteration `index` of a repeat over `each`: `each` and `current` in the Liquid of a template
 * name that item. Paths already indexed (`payload.items[2]`) are left alone. The pattern is built
 * once per repeat, not once per item.
 */
export function itemRewrites(outer: Rewrite, each: string): (index: number) => Rewrite {
  const names = new RegExp(`(?<![\\w.\\]-])(?:${escapeRegExp(each)}|current)(?![\\w[-])`, 'g');
  return (index) => {
    const item = `${each}[${index}]`;
    return (template) => outer(template).replace(LIQUID_BLOCK, (block) => block.replace(names, item));
  };
}

/** The Liquid templates a node itself holds (not its children's), for reading and rendering alike. */
function nodeTemplates(node: BlockNode): string[] {
  const found: (string | undefined)[] = [];
  const a = node.attrs;
  if (typeof a?.showIfKey === 'string' && a.showIfKey !== '') found.push(asOutput(a.showIfKey));
  switch (node.type) {
    case 'text':
      found.push(node.text);
      break;
    case 'variable':
      if (a?.id !== 'content') found.push(variableTemplate(a));
      break;
    case 'repeat':
    case 'for':
      found.push(asOutput(bareExpression(String(a?.each || 'items'))));
      break;
    case 'button':
      found.push(fieldTemplate(node, 'text', 'isTextVariable'), fieldTemplate(node, 'url', 'isUrlVariable'));
      break;
    case 'image':
    case 'inlineImage':
    case 'logo':
      found.push(fieldTemplate(node, 'src', 'isSrcVariable'), fieldTemplate(node, 'externalLink', 'isExternalLinkVariable'));
      break;
  }
  for (const mark of node.marks ?? []) {
    if (mark.type === 'link') found.push(fieldTemplate({ type: 'link', attrs: mark.attrs }, 'href', 'isUrlVariable'));
  }
  return found.filter((t): t is string => t !== undefined && t !== '');
}

/**
 * Every template of a document, inside repeats as for their first item: what an author's
 * variables are read from (workflow issues, payload examples).
 */
export function documentTemplates(node: BlockNode, rewrite: Rewrite = noRewrite): string[] {
  const own = nodeTemplates(node).map(rewrite);
  const inner = node.type === 'repeat' || node.type === 'for' ? itemRewrites(rewrite, repeatEach(node, rewrite))(0) : rewrite;
  return [...own, ...(node.content ?? []).flatMap((child) => documentTemplates(child, inner))];
}
