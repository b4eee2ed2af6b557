// What the service logged at ERROR level over a test run, grouped by message and error, for the
// run's report: a CI run that fails on a 500 then shows the errorId's cause, which the log capture
// (deleted at the end of the run) would otherwise take with it. Many tests provoke errors on
// purpose (faults, failing providers), so this is a summary, not a verdict.

interface Group {
  count: number;
  sample: string;
}

const MAX_GROUPS = 40;
const MAX_LINE = 400;

export function loggedErrors(files: Map<string, string>): string[] {
  const groups = new Map<string, Group>();
  for (const text of files.values()) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('{"level":"ERROR"')) continue;
      const entry = parse(line);
      if (!entry) continue;
      const error = entry.error as { name?: string; message?: string; stack?: string } | undefined;
      const where = error?.stack
        ?.split('\n')
        .find((l) => l.includes('/lib/') || l.includes('/functions/'))
        ?.trim();
      const key = `${String(entry.message)} | ${error?.name ?? ''}: ${error?.message ?? ''}`.slice(0, MAX_LINE);
      const group = groups.get(key) ?? { count: 0, sample: [entry.errorId, where].filter(Boolean).join(' ') };
      group.count++;
      groups.set(key, group);
    }
  }
  return [...groups]
    .sort((a, b) => b[1].count - a[1].count)
    .slice(0, MAX_GROUPS)
    .map(([key, { count, sample }]) => `  ${count}× ${key}${sample ? `  (${sample})` : ''}`);
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
