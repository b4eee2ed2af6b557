import { BadRequestError } from '../errors.ts';

// A `multipart/form-data` body read with the runtime's own parser (undici's FormData, what
// `Response.formData()` uses in Node), so no parser of our own and no dependency. API Gateway
// hands such a body over base64-encoded.

export interface UploadedFile {
  filename: string;
  /** The file as UTF-8 text (the upload routes take JSON files). */
  content: string;
}

/** Text fields by name (a repeated one as a list), file fields always as a list of files. */
export type MultipartFields = Record<string, string | string[] | UploadedFile[]>;

export async function parseMultipart(
  body: string | undefined,
  isBase64Encoded: boolean | undefined,
  contentType: string | undefined,
): Promise<MultipartFields> {
  if (!contentType || !/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw new BadRequestError('Expected a multipart/form-data body with a boundary');
  }
  let form: FormData;
  try {
    const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8');
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new BadRequestError('Invalid or malformed multipart/form-data body');
  }
  const fields = new Map<string, (string | UploadedFile)[]>();
  for (const [name, value] of form) {
    const entry = typeof value === 'string' ? value : { filename: value.name, content: await value.text() };
    fields.set(name, [...(fields.get(name) ?? []), entry]);
  }
  // fromEntries defines own properties: a `__proto__` field stays a plain key.
  return Object.fromEntries(
    [...fields].map(([name, values]) => {
      const files = values.filter((v): v is UploadedFile => typeof v !== 'string');
      const texts = values.filter((v): v is string => typeof v === 'string');
      if (files.length > 0) return [name, files];
      return [name, texts.length === 1 ? texts[0]! : texts];
    }),
  );
}
