// How many cases a property test runs: all of them in CI (CI set, as CI services set it) or when
// PROPERTY_RUNS=full; otherwise, on a developer's machine, a fifth, or the share PROPERTY_RUNS
// gives (a number: 0.5 is half, 1 is all). Every case is random, so a smaller run still walks every
// route; the full count is what CI proves.

const LOCAL_SHARE = 0.2;

function share(): number {
  const setting = process.env.PROPERTY_RUNS;
  if (setting === 'full') return 1;
  if (setting !== undefined && setting !== '') {
    const value = Number(setting);
    if (!(value > 0)) throw new Error(`PROPERTY_RUNS is "full" or a share above 0 (1 is all), not "${setting}"`);
    return value;
  }
  return process.env.CI && process.env.CI !== 'false' ? 1 : LOCAL_SHARE;
}

/** `full` cases, scaled as this run asks (see above); at least one. */
export const propertyRuns = (full: number): number => Math.max(1, Math.round(full * share()));
