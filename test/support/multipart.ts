import { randomBytes } from 'node:crypto';

// A multipart/form-data body as text, for requests made with the tests' ApiClient (`rawBody`):
// text fields, then files (each with its field name, file name and JSON text).

export interface MultipartBody {
  rawBody: string;
  headers: Record<string, string>;
}

export function multipartBody(
  fields: Record<string, string>,
  files: { field: string; filename: string; content: string }[] = [],
): MultipartBody {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const parts = [
    ...Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    ...files.map(
      (f) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\n` +
        `Content-Type: application/json\r\n\r\n${f.content}\r\n`,
    ),
  ];
  return { rawBody: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
