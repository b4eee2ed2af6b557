import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is built to console/dist and served by the API itself under /console/
// (functions/console/serve.ts), so it calls the API on its own origin: no CORS, and the API key
// never leaves that origin. `npm run console:dev` serves it with hot reload instead, passing API
// calls on to a running `npm start` (CONSOLE_API, default http://127.0.0.1:3000).
const api = process.env.CONSOLE_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  // Vitest sets NODE_ENV=test, which Vite reads as "not production": fixed here so a build from
  // a test is the same production build `npm install` makes.
  define: { 'process.env.NODE_ENV': JSON.stringify(process.env.CONSOLE_DEV ? 'development' : 'production') },
  oxc: { jsx: { runtime: 'automatic', development: false } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    reportCompressedSize: false,
    // The inbox (@novu/react) is its own chunk, loaded on the subscriber page only.
    chunkSizeWarningLimit: 1_500,
    rolldownOptions: {
      // TanStack Query and @novu/react mark modules "use client" for React Server Components; a
      // client-only bundle has no use for the directive, so the warning for each is noise.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  server: { proxy: { '/v1': api, '/v2': api, '/console/config.json': api } },
});
