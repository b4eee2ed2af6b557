import type { Access } from '../constructs/access.ts';

// The console (console/, a single-page app) is served by the API itself: `/` and every path
// under `/console/`, so it calls the API on its own origin. Its routes answer files, not JSON, so
// they are an entry of their own beside the API's route table (like the fallback route): the
// stack makes them GET routes of the HTTP API to one function, the local gateway serves them, and
// the OpenAPI document and the API's request validation never see them.
export const consoleRoute = {
  operationId: 'serveConsole',
  handler: 'functions/console/serve.ts',
  /** API Gateway path syntax; `{path+}` is greedy (every path below). */
  paths: ['/', '/console/{path+}'],
  access: 'none' as Access,
} as const;
