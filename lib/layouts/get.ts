import type { EnvScope } from '../scope.ts';
import { requireLayout } from './lookup.ts';
import type { LayoutResponse } from './schemas.ts';
import { toLayoutResponse } from './view.ts';

export async function getLayoutResponse(scope: EnvScope, ref: string): Promise<LayoutResponse> {
  return toLayoutResponse(await requireLayout(scope, ref));
}
