import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';

// Debian's Chromium driven by playwright-core, which never downloads a browser of its own here:
// the machine's Chromium is launched by path. No vitest here: the global setup uses it too.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// machine's closed network refuses; --no-sandbox because tests run as root.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function checkChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM}. ` +
        "Install Debian's package: `apt-get install -y chromium` (as root; .ci/run does it), " +
        'or set CHROMIUM_PATH to another Chromium build.',
    );
  }
}

/** Launches the machine's Chromium; a clear error (not a skip) where it is not installed. */
export async function launchLocalChromium(): Promise<Browser> {
  checkChromium();
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Starts a Chromium that others connect to by its `wsEndpoint()` (the browser project's global setup). */
export async function launchChromiumServer(): Promise<BrowserServer> {
  checkChromium();
  return chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
