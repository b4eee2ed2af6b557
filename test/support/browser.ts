import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { inject, onTestFinished } from 'vitest';
import { launchLocalChromium } from './chromium.ts';
import { listenOnLoopback } from './fake-server.ts';

// What browser tests share: the inbox test app built with Vite, a static server for it on its own
// origin, and Debian's Chromium driven by playwright-core (test/support/chromium.ts).

const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../browser/inbox-app');

/**
 * The run's Chromium (test/support/chromium-setup.ts starts one for the browser project, and each
 * file connects to it: closing the connection closes what the file opened, not the browser), or,
 * outside that project, one launched for the caller. A clear error (not a skip) where Chromium is
 * not installed.
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return launchLocalChromium();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium, where the project starts one. */
    chromiumEndpoint?: string;
  }
}

/** Builds test/browser/inbox-app into a new temporary folder; that folder. */
export function buildInboxApp(): Promise<string> {
  return buildApp(APP_DIR, 'notify-inbox-app-');
}

const NOTIFICATION_CENTER_APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../browser/notification-center-app');

/**
 * Builds test/browser/notification-center-app, the `<NotificationCenter />` page. It is an npm
 * project of its own (React 18, which the legacy widget needs, while the service is on React 19;
 * docs/inbox.md): its dependencies are installed from its own lockfile the first time.
 */
export async function buildNotificationCenterApp(): Promise<string> {
  if (!existsSync(join(NOTIFICATION_CENTER_APP_DIR, 'node_modules', '@novu', 'notification-center'))) {
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: NOTIFICATION_CENTER_APP_DIR,
      stdio: 'ignore',
    });
  }
  return buildApp(NOTIFICATION_CENTER_APP_DIR, 'notify-nc-app-');
}

async function buildApp(root: string, prefix: string): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), prefix));
  // Imported here so only the files that build a page load Vite (and its bundler) at all.
  const { build } = await import('vite');
  await build({
    root,
    configFile: false,
    base: './',
    logLevel: 'warn',
    mode: 'production',
    // Vitest sets NODE_ENV=test, which Vite reads as "not production": React's development
    // build and development JSX (jsxDEV, which React's production runtime lacks) unless both are
    // set. JSX goes through Vite's own transform (Oxc in Vite 8): no React plugin needed.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    oxc: { jsx: { runtime: 'automatic', development: false } },
    // One page of React and the whole inbox UI is one large chunk, and that is fine for a test.
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 5_000 },
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>`: an origin of its own, not the API's. */
  url: string;
  close(): Promise<void>;
}

/** Serves the files of `dir` (GET/HEAD only; `/` is index.html) on a free port of the loopback. */
export function serveStatic(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    const inside = file.startsWith(root + sep);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !inside || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  });
  return listenOnLoopback(server);
}

export interface PageProblems {
  /** Uncaught errors and console errors of the page, in order. */
  errors: string[];
}

/**
 * A new context and page for the current test: closed when it finishes; on failure a full-page
 * screenshot is saved to a temporary folder and its path printed. Page errors are collected for
 * the test to assert on.
 */
export async function newTestPage(browser: Browser): Promise<{ page: Page; context: BrowserContext; problems: PageProblems }> {
  // A reader who asks for less motion: the console's loading icons stand still (an animated
  // icon keeps Chromium painting a frame every 16 ms, a sixth of a core per open page).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems: PageProblems = { errors: [] };
  page.on('pageerror', (error) => problems.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.errors.push(`console: ${message.text()}`);
  });
  // One hook, not onTestFailed: Vitest runs the finished hooks first, and the page must still
  // be open for its screenshot.
  onTestFinished(async ({ task }) => {
    try {
      if (task.result?.state === 'fail') await screenshot(page, task.name, problems);
    } finally {
      await context.close();
    }
  });
  return { page, context, problems };
}

async function screenshot(page: Page, testName: string, problems: PageProblems): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-browser-failure-'));
  const file = join(dir, `${testName.replace(/[^\w-]+/g, '-').slice(0, 80)}.png`);
  try {
    await page.screenshot({ path: file, fullPage: true });
    console.error(`Screenshot of the failed test "${testName}": ${file}\nPage errors: ${JSON.stringify(problems.errors)}`);
  } catch (error) {
    console.error(`No screenshot of the failed test "${testName}": ${String(error)}`);
  }
}

/** What a download holds, as text: read through the connection (a connected browser's file is not on this side's disk). */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
