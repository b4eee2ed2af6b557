import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApi } from '#lib/http/openapi.ts';
import { routes } from './routes.ts';

// This API's OpenAPI document, built from the route table where the functions are made: at synth
// into the getOpenApi function's asset (infra/constructs/route-files.ts), at start by the local
// runtime. The function only reads the file: building the document takes the whole route table's
// schemas and most of a second of CPU, which would otherwise be that function's cold start.

export const OPENAPI_INFO = { title: 'Notification delivery service', version: '1.0.0' } as const;

/** The document's file name, in the asset and in the local state folder. */
export const OPENAPI_FILE_NAME = 'openapi.json';

/** Writes the document into `dir`; returns the file's path. */
export function writeOpenApiDocument(dir: string): string {
  const file = join(dir, OPENAPI_FILE_NAME);
  writeFileSync(file, JSON.stringify(buildOpenApi(routes, OPENAPI_INFO)));
  return file;
}
