import { evaluateExpression } from '../../workflows/templates.ts';
import type { BlockNode } from './document.ts';
import { asOutput, itemRewrites, repeatEach } from './expressions.ts';
import { liquidText, type RenderContext } from './context.ts';

// The nodes a parent's content stands for once the variables are known, as the reference's
// renderer expands them: a node whose `showIfKey` is false is left out; a repeat (or the
// deprecated `for`) is replaced by its children once per item of the list its `each` names (the
// first `iterations` items when set), each copy seeing that item.

export interface Expanded {
  node: BlockNode;
  context: RenderContext;
}

const FALSE_TEXTS = new Set(['', 'false', 'null', 'undefined', 'nil', '0']);

/** A showIfKey's verdict: its value rendered, false when empty or a falsy JSON value. */
function shown(node: BlockNode, context: RenderContext): boolean {
  const key = node.attrs?.showIfKey;
  if (typeof key !== 'string' || key.trim() === '') return true;
  return !FALSE_TEXTS.has(liquidText(context, asOutput(key)).trim());
}

function itemsOf(node: BlockNode, context: RenderContext, each: string): unknown[] {
  const list = evaluateExpression(each, context.variables);
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new Error(`The repeat block's list "${each}" is not a list`);
  const iterations = Math.trunc(Number(node.attrs?.iterations ?? 0));
  return iterations > 0 ? list.slice(0, iterations) : list;
}

export function expand(nodes: readonly BlockNode[], context: RenderContext): Expanded[] {
  return nodes.flatMap((node): Expanded[] => {
    if (!shown(node, context)) return [];
    if (node.type !== 'repeat' && node.type !== 'for') return [{ node, context }];
    const each = repeatEach(node, context.rewrite);
    const rewriteFor = itemRewrites(context.rewrite, each);
    return itemsOf(node, context, each).flatMap((_, index) => expand(node.content ?? [], { ...context, rewrite: rewriteFor(index) }));
  });
}
