import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV } from '../../lib/config.ts';
import type { RouteDef } from '../../lib/http/route.ts';
import { OPENAPI_FILE_NAME, writeOpenApiDocument } from '../openapi-document.ts';
import { LAMBDA_TASK_ROOT, type FunctionFiles } from './function-factory.ts';

// Files a route's function ships beside its bundle, by operation: today the OpenAPI document,
// written at synth from the same route table the stack is made of.

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Under the repository (ignored), so the bundling's input folder holds it, locally or in Docker. */
const DOCUMENT_DIR = path.join('.local', 'synth-openapi');
let written = false;

const FILES: Partial<Record<string, () => FunctionFiles>> = {
  getOpenApi: () => ({
    environment: { [ENV.openApiDocument]: `${LAMBDA_TASK_ROOT}/${OPENAPI_FILE_NAME}` },
    afterBundling: (inputDir, outputDir) => {
      // Written when the function is bundled (a synth that skips bundling writes nothing), once
      // per synth: every stage's stacks ship the same document.
      if (!written) {
        mkdirSync(path.join(REPO_ROOT, DOCUMENT_DIR), { recursive: true });
        writeOpenApiDocument(path.join(REPO_ROOT, DOCUMENT_DIR));
        written = true;
      }
      return [`cp "${inputDir}/${DOCUMENT_DIR}/${OPENAPI_FILE_NAME}" "${outputDir}/${OPENAPI_FILE_NAME}"`];
    },
  }),
};

/** What the route's function carries beside its code, if anything. */
export const routeFiles = (route: Pick<RouteDef, 'operationId'>): FunctionFiles | undefined => FILES[route.operationId]?.();
