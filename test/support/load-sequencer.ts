import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order, except that the `load` project's files start in the order given. Its two
 * workers then run the bench smoke beside the fault file, and the large audience after it: the
 * two fault-stack files never run at once (both hold their consumers to short budgets, and one
 * starved the other when they did). Vitest's own order would put them side by side on a clean
 * clone (largest file first) and vary with the results cache elsewhere.
 */
export function loadSequencer(loadOrder: readonly string[]) {
  return class LoadSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (spec: TestSpecification) => loadOrder.indexOf(relative(this.ctx.config.root, spec.moduleId));
      const load = sorted.filter((spec) => spec.project.name === 'load').sort((a, b) => rank(a) - rank(b));
      return [...sorted.filter((spec) => spec.project.name !== 'load'), ...load];
    }
  };
}
