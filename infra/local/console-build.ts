import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The console's files (console/dist) are built by `npm install` (the `prepare` script); `npm
// start` and the tests build them again only when a source is newer than the build, so an edit
// shows without a step of its own and an unchanged checkout starts at once.

const CONSOLE = fileURLToPath(new URL('../../console', import.meta.url));
/** The built console the local runtime serves (CONSOLE_DIR). */
export const CONSOLE_DIST = join(CONSOLE, 'dist');
const BUILT = join(CONSOLE_DIST, 'index.html');

function newestSource(dir = CONSOLE): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export const consoleIsStale = (): boolean => !existsSync(BUILT) || statSync(BUILT).mtimeMs < newestSource();

/** Builds console/dist when it is missing or older than a source; true when it built. */
export async function ensureConsoleBuilt(): Promise<boolean> {
  if (!consoleIsStale()) return false;
  // Imported here so only a build loads Vite (and its bundler).
  const { build } = await import('vite');
  await build({ configFile: join(CONSOLE, 'vite.config.ts'), logLevel: 'warn' });
  return true;
}
