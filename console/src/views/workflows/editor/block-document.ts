import type { BlockNode } from '../../../../../lib/email/block/document.ts';

// The block editor's document (the email body when `editorType` is `block`: the JSON of the
// reference's Maily editor) as the form edits it: its top-level blocks, each of a kind the form
// knows (heading, paragraph, button, image, divider, spacer, footer) or kept as it is. A block is
// rebuilt only when it is edited, so what the form cannot show (marks, variable nodes' fallbacks,
// a section's children) stays as written until its text is changed here.

export type { BlockNode };

export const BLOCK_KINDS = ['heading', 'paragraph', 'button', 'image', 'horizontalRule', 'spacer', 'footer'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export const BLOCK_NAMES: Record<BlockKind, string> = {
  heading: 'Heading',
  paragraph: 'Paragraph',
  button: 'Button',
  image: 'Image',
  horizontalRule: 'Divider',
  spacer: 'Spacer',
  footer: 'Footer',
};

export const isFormKind = (type: string): type is BlockKind => (BLOCK_KINDS as readonly string[]).includes(type);

/** The document's blocks; undefined when the text is not a block document (`{"type":"doc"}`). */
export function blocksOf(body: string): BlockNode[] | undefined {
  if (!body.trim()) return [];
  try {
    const doc = JSON.parse(body) as BlockNode;
    if (typeof doc !== 'object' || doc === null || doc.type !== 'doc') return undefined;
    return Array.isArray(doc.content) ? doc.content : [];
  } catch {
    return undefined;
  }
}

export const documentOf = (blocks: BlockNode[]): string => JSON.stringify({ type: 'doc', content: blocks });

/** A new block of `kind` with the attributes the reference's editor gives it. */
export function newBlock(kind: BlockKind): BlockNode {
  switch (kind) {
    case 'heading':
      return { type: 'heading', attrs: { textAlign: 'left', level: 2 }, content: [] };
    case 'paragraph':
      return { type: 'paragraph', attrs: { textAlign: 'left' }, content: [] };
    case 'footer':
      return { type: 'footer', attrs: { textAlign: 'left' }, content: [] };
    case 'button':
      return {
        type: 'button',
        attrs: {
          text: 'Open',
          isTextVariable: false,
          url: '',
          isUrlVariable: false,
          alignment: 'left',
          variant: 'filled',
          borderRadius: 'smooth',
          buttonColor: '#000000',
          textColor: '#ffffff',
        },
      };
    case 'image':
      return { type: 'image', attrs: { src: '', alt: '', alignment: 'center', isSrcVariable: false } };
    case 'horizontalRule':
      return { type: 'horizontalRule' };
    case 'spacer':
      return { type: 'spacer', attrs: { height: 16 } };
  }
}

/**
 * A text block's content as one string (`{{name}}` for a variable node, a new line for a break),
 * or undefined when it holds what a plain text field would lose (marks, other nodes).
 */
export function textOf(block: BlockNode): string | undefined {
  let text = '';
  for (const node of block.content ?? []) {
    if (node.type === 'text' && !node.marks?.length) text += node.text ?? '';
    else if (node.type === 'hardBreak') text += '\n';
    else if (node.type === 'variable' && typeof node.attrs?.id === 'string') text += `{{${node.attrs.id}}}`;
    else return undefined;
  }
  return text;
}

/** The block with `text` as its content: its lines as text (whose `{{…}}` the renderer fills), joined by breaks. */
export function withText(block: BlockNode, text: string): BlockNode {
  const content = text
    .split('\n')
    .flatMap((line, i): BlockNode[] => [...(i > 0 ? [{ type: 'hardBreak' }] : []), ...(line ? [{ type: 'text', text: line }] : [])]);
  return { ...block, content };
}

export const withAttrs = (block: BlockNode, attrs: Record<string, unknown>): BlockNode => ({
  ...block,
  attrs: { ...block.attrs, ...attrs },
});
