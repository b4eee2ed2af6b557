// Replaced at merge: the block-editor renderer is built on another branch with exactly this
// contract. Until then a block layout is stored, validated and returned, but not rendered.

export interface BlockRenderOptions {
  fragment: boolean;
  content?: string;
}

export function renderBlockEmail(document: string, variables: Record<string, unknown>, options: BlockRenderOptions): string {
  void document;
  void variables;
  void options;
  throw new Error('block layouts are rendered once the block renderer is merged');
}
