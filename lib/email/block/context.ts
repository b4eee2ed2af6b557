import { safeUrl, type UrlKind } from '../../pipeline/steps/sanitize.ts';
import { renderTemplate } from '../../workflows/templates.ts';
import type { BlockNode } from './document.ts';
import { fieldTemplate, type Rewrite } from './expressions.ts';

// What every block renderer gets: the variables, the rewrite of the repeats it is inside, and the
// renderer of children (render.ts), passed in so that the node renderers do not import each other.
// Dynamic values are rendered by the one Liquid module (plain text: the renderer escapes what it
// inserts), URLs then pass safeUrl.

/** Where a node sits among its rendered siblings: paragraphs drop their bottom margin at the end of a box. */
export interface Place {
  parent: string;
  next?: string;
  last: boolean;
}

export interface RenderContext {
  variables: Record<string, unknown>;
  rewrite: Rewrite;
  /** The layout slot's HTML (a `variable` node with id `content`). */
  content?: string;
  children(node: BlockNode, context: RenderContext): string;
}

export type NodeRenderer = (node: BlockNode, context: RenderContext, place: Place) => string;

/** A template of the document rendered as text. */
export const liquidText = (context: RenderContext, template: string): string =>
  renderTemplate(context.rewrite(template), context.variables);

/** An attr's text (rendered when it holds Liquid or is flagged a variable), or undefined when empty. */
export function attrText(context: RenderContext, node: BlockNode, field: string, flag: string): string | undefined {
  const template = fieldTemplate(node, field, flag);
  return template === undefined ? undefined : liquidText(context, template);
}

/** An attr's URL, rendered, or undefined when empty or going where a link or image must not. */
export function attrUrl(context: RenderContext, node: BlockNode, field: string, flag: string, kind: UrlKind): string | undefined {
  const url = attrText(context, node, field, flag)?.trim();
  return url ? safeUrl(url, kind) || undefined : undefined;
}
