import { readFileSync } from 'node:fs';
import { openApiDocumentFile } from '../config.ts';
import { PreparedResponse } from './handler-chain.ts';

// The OpenAPI document as written beside the function (infra/openapi-document.ts), sent as the
// file's text: read on the first request and kept, never parsed or serialized again (over 1 MB).

let text: string | undefined;

export function openApiDocumentResponse(): PreparedResponse {
  text ??= readFileSync(openApiDocumentFile(), 'utf8');
  return new PreparedResponse({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: text });
}
