import type { BlockMark, BlockNode } from '#lib/email/block/document.ts';

// Block-editor documents (lib/email/block) written compactly in tests: a node, a text with its
// marks, a variable node as the editor stores it, and the body a step or layout holds.

export const n = (type: string, attrs: Record<string, unknown> = {}, content?: BlockNode[]): BlockNode => ({
  type,
  attrs,
  ...(content && { content }),
});
export const t = (text: string, marks?: BlockMark[]): BlockNode => ({ type: 'text', text, ...(marks && { marks }) });
export const v = (id: string, attrs: Record<string, unknown> = {}): BlockNode =>
  n('variable', { id, label: null, fallback: null, required: false, aliasFor: null, ...attrs });
export const doc = (...content: BlockNode[]): string => JSON.stringify({ type: 'doc', content });
