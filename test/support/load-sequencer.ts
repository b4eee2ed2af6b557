import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The vitest project of the load tests (vitest.config.ts), run last and without the run's stack. */
export const LOAD_PROJECT = 'load';

/**
 * Vitest's order, except that the `load` project's files start in the order given. With two
 * workers the bench smoke run and the fault file start together, and the large audience takes the
 * worker that frees first: the fault file's, which ends about two minutes before the smoke run
 * here. The two fault-stack files starved each other side by side (both hold their consumers to
 * short budgets). Vitest's own order would start them together on a clean clone (largest file
 * first) and vary with the results cache elsewhere.
 */
export function loadSequencer(loadOrder: readonly string[]) {
  return class LoadSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (spec: TestSpecification) => loadOrder.indexOf(relative(this.ctx.config.root, spec.moduleId));
      const load = sorted.filter((spec) => spec.project.name === LOAD_PROJECT).sort((a, b) => rank(a) - rank(b));
      return [...sorted.filter((spec) => spec.project.name !== LOAD_PROJECT), ...load];
    }
  };
}
