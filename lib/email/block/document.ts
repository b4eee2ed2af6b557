import * as z from '../../zod.ts';

// A block-editor email body: the JSON of a TipTap/ProseMirror document that Novu's email editor
// (Maily) produces, `{"type":"doc","content":[…]}`. Parsed and checked once, on write and before
// rendering, so the renderers meet only the node and mark types they know, in their places.

export interface BlockMark {
  type: string;
  attrs?: Record<string, unknown>;
}

export interface BlockNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: BlockNode[];
  marks?: BlockMark[];
  text?: string;
}

/** Every node type the renderer draws (docs/content.md); `for` is the deprecated `repeat`. */
const NODE_TYPES = [
  'doc',
  'paragraph',
  'heading',
  'text',
  'variable',
  'hardBreak',
  'button',
  'image',
  'inlineImage',
  'logo',
  'spacer',
  'horizontalRule',
  'section',
  'columns',
  'column',
  'repeat',
  'for',
  'htmlCodeBlock',
  'footer',
  'blockquote',
  'bulletList',
  'orderedList',
  'listItem',
] as const;

const MARK_TYPES = ['bold', 'italic', 'underline', 'strike', 'code', 'textStyle', 'link'] as const;

const KNOWN_NODES: ReadonlySet<string> = new Set(NODE_TYPES);
const KNOWN_MARKS: ReadonlySet<string> = new Set(MARK_TYPES);

const attrs = z.optional(z.record(z.string(), z.unknown()));
const mark = z.object({ type: z.string(), attrs });
const node: z.ZodMiniType<BlockNode> = z.object({
  type: z.string(),
  attrs,
  get content() {
    return z.optional(z.array(node));
  },
  marks: z.optional(z.array(mark)),
  text: z.optional(z.string()),
});

/** Where a node sits, for messages: `content[1].content[0] (button)`. */
const placeOf = (path: (string | number)[]) =>
  path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');

/** Why the tree is not one the renderer draws, or undefined. */
function problemIn(tree: BlockNode, path: (string | number)[], parent: string | undefined): string | undefined {
  const at = path.length > 0 ? ` at ${placeOf(path)}` : '';
  if (!KNOWN_NODES.has(tree.type)) return `Node type "${tree.type}" is not supported${at}`;
  if (tree.type === 'doc' && parent !== undefined) return `a doc node may only be the root${at}`;
  if (tree.type === 'column' && parent !== 'columns') return `a column must be inside columns${at}`;
  if (parent === 'columns' && tree.type !== 'column') return `columns may hold column nodes only, not "${tree.type}"${at}`;
  if (parent === 'htmlCodeBlock' && tree.type !== 'text' && tree.type !== 'variable')
    return `an htmlCodeBlock holds text and variables only, not "${tree.type}"${at}`;
  if (tree.type === 'text' && tree.text === undefined) return `a text node needs its text${at}`;
  for (const [i, m] of (tree.marks ?? []).entries()) {
    if (!KNOWN_MARKS.has(m.type)) return `Mark type "${m.type}" is not supported${at}.marks[${i}]`;
  }
  for (const [i, child] of (tree.content ?? []).entries()) {
    const problem = problemIn(child, [...path, 'content', i], tree.type);
    if (problem) return problem;
  }
  return undefined;
}

/** Deeper than any editor's document; keeps the recursive checks and renderers far from the stack's limit. */
const MAX_DEPTH = 50;

/** How deep the nodes of a JSON value go through `content`, counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    const content = typeof item === 'object' && item !== null ? (item as { content?: unknown }).content : undefined;
    if (Array.isArray(content) && depth <= MAX_DEPTH) for (const child of content) stack.push([child, depth + 1]);
  }
  return deepest;
}

export type BlockDocumentReading = { ok: true; doc: BlockNode } | { ok: false; message: string };

/** A JSON value's document, or why it is not a block-editor document this service renders. */
function checkDocument(value: unknown): BlockDocumentReading {
  if (depthOf(value) > MAX_DEPTH) return { ok: false, message: `nodes are nested more than ${MAX_DEPTH} deep` };
  const parsed = node.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `${issue.message}${issue.path.length > 0 ? ` at ${placeOf(issue.path as (string | number)[])}` : ''}` };
  }
  if (parsed.data.type !== 'doc') return { ok: false, message: `the root must be a doc node, not "${parsed.data.type}"` };
  const problem = problemIn(parsed.data, [], undefined);
  return problem ? { ok: false, message: problem } : { ok: true, doc: parsed.data };
}

/** The document a body holds, or why it is not a block-editor document this service renders. */
export function parseBlockDocument(body: string): BlockDocumentReading {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, message: `not JSON: ${(error as Error).message}` };
  }
  return checkDocument(value);
}

/**
 * A body's reading when it is a block document by its form, a JSON object of type `doc` (the
 * reference decides so at render time), else undefined: the body is HTML. The JSON is parsed
 * once, for both the decision and the check.
 */
export function blockDocumentOf(body: string): BlockDocumentReading | undefined {
  if (!body.trimStart().startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'doc') return undefined;
  return checkDocument(value);
}
