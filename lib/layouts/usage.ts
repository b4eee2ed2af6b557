import type { EnvScope } from '../scope.ts';
import { requireLayout } from './lookup.ts';
import type { LayoutUsage } from './schemas.ts';
import { usesOfLayout } from './uses.ts';

/** The workflows whose email steps name the layout. */
export async function layoutUsage(scope: EnvScope, ref: string): Promise<LayoutUsage> {
  const layout = await requireLayout(scope, ref);
  return { workflows: await usesOfLayout(scope, layout.layoutId) };
}
