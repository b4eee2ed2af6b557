import { expand } from './conditions.ts';
import type { NodeRenderer, RenderContext } from './context.ts';
import { parseBlockDocument, type BlockDocumentReading, type BlockNode } from './document.ts';
import { noRewrite } from './expressions.ts';
import { columns, section } from './boxes.ts';
import { hardBreak, text, variable } from './inline.ts';
import { button, image, inlineImage, logo } from './media.ts';
import { wholeDocument } from './page.ts';
import {
  blockquote,
  bulletList,
  footer,
  heading,
  horizontalRule,
  htmlCodeBlock,
  listItem,
  orderedList,
  paragraph,
  spacer,
} from './text-blocks.ts';

// A block-editor email body (the JSON of Novu's Maily editor) rendered to email-client-safe HTML:
// tables, attributes and inline styles. Our own renderer over the documented node types
// (docs/content.md): the reference's pulls React and react-email, far over the jobs
// consumer's bundle budget. Sanitizing, the layout and CSS inlining follow in the email step
// (lib/pipeline/steps/email-content.ts), as for an HTML body.

export interface BlockRenderOptions {
  /** true: the body's HTML only (it goes inside a layout); false: a whole HTML document. */
  fragment: boolean;
  /** Layouts: the HTML a `variable` node with id `content` is replaced by, unescaped. */
  content?: string;
}

const RENDERERS: Record<string, NodeRenderer> = {
  doc: (node, context) => context.children(node, context),
  paragraph,
  heading,
  footer,
  blockquote,
  bulletList,
  orderedList,
  listItem,
  horizontalRule,
  spacer,
  htmlCodeBlock,
  text,
  variable,
  hardBreak,
  button,
  image,
  inlineImage,
  logo,
  section,
  // No `column`: the document check keeps columns inside columns, which draws them as its cells.
  columns,
};

/** A node's children, shown-if and repeats applied, each drawn knowing what follows it. */
function children(node: BlockNode, context: RenderContext): string {
  const nodes = expand(node.content ?? [], context);
  return nodes
    .map((item, i) => {
      const render = RENDERERS[item.node.type];
      if (!render) throw new Error(`Node type "${item.node.type}" is not supported.`);
      return render(item.node, item.context, { parent: node.type, next: nodes[i + 1]?.node.type, last: i === nodes.length - 1 });
    })
    .join('');
}

/**
 * The email's HTML, from the body or its reading (blockDocumentOf) when the caller has one; throws
 * an Error saying why when the body is not a document this service renders.
 */
export function renderBlockEmail(
  document: string | BlockDocumentReading,
  variables: Record<string, unknown>,
  options: BlockRenderOptions,
): string {
  const parsed = typeof document === 'string' ? parseBlockDocument(document) : document;
  if (!parsed.ok) throw new Error(`The email body is not a valid block-editor document: ${parsed.message}`);
  const context: RenderContext = {
    variables,
    rewrite: noRewrite,
    children,
    ...(options.content !== undefined && { content: options.content }),
  };
  const body = children(parsed.doc, context);
  return options.fragment ? body : wholeDocument(body);
}
