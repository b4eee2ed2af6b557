import { AppError, BadRequestError, type FieldError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getOrganizationSettings } from '../accounts/organization-settings.ts';
import { normalizeLocale } from './locales.ts';
import { importMasterJson } from './master-json.ts';
import { putTranslations } from './repository.ts';
import { requireResource } from './resources.ts';
import {
  fitsContentLimit,
  MAX_CONTENT_BYTES,
  type ImportMasterJsonResult,
  type UploadedTranslationFile,
  type UploadMasterJsonInput,
  type UploadResult,
  type UploadTranslationsInput,
} from './schemas.ts';

// The upload routes: `<locale>.json` files sent as multipart/form-data, each file one locale's
// content (or, for the master JSON, every resource's content of its locale), as the reference
// takes them. A file name that is not exactly a known locale refuses the whole request.

/** The file's locale, when its name is exactly `<locale>.json` (`en_US.json`, `en-US.json`). */
const localeOfFile = (filename: string): string | undefined => {
  const match = /^(.+)\.json$/.exec(filename);
  return match ? normalizeLocale(match[1]!) : undefined;
};

function assertNamedByLocale(files: UploadedTranslationFile[]): void {
  const bad = files.filter((f) => localeOfFile(f.filename) === undefined);
  if (bad.length === 0) return;
  const errors: Record<string, FieldError> = Object.fromEntries(
    bad.map((f) => [
      f.filename,
      { messages: [`File '${f.filename}' must be named <locale>.json with a known locale, e.g. en_US.json`], value: f.filename },
    ]),
  );
  throw new AppError(400, `Some files have invalid names or formats: ${bad.map((f) => f.filename).join(', ')}`, { errors });
}

function parseJsonObject(file: UploadedTranslationFile): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.content);
  } catch {
    throw new Error('invalid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the file must hold a JSON object');
  if (!fitsContentLimit(parsed)) throw new Error(`the content is larger than ${MAX_CONTENT_BYTES} bytes`);
  return parsed as Record<string, unknown>;
}

/**
 * `POST /v2/translations/upload`: each file replaces its locale's content. Only the
 * organization's default and target locales may be uploaded (as the reference requires); a file
 * that does not hold a JSON object fails alone and is reported in `errors`.
 */
export async function uploadTranslations(scope: EnvScope, input: UploadTranslationsInput): Promise<UploadResult> {
  const files = [...(input.files ?? []), ...(input['files[]'] ?? [])];
  if (files.length === 0) throw new BadRequestError('No valid translation files were found');
  assertNamedByLocale(files);
  const settings = await getOrganizationSettings(scope);
  const configured = [settings.defaultLocale, ...settings.targetLocales];
  const unconfigured = [...new Set(files.map((f) => localeOfFile(f.filename)!).filter((l) => !configured.includes(l)))];
  if (unconfigured.length > 0) {
    throw new BadRequestError(
      `The following locales are not configured for your organization: ${unconfigured.join(', ')}. ` +
        `Configured locales: ${configured.join(', ')}`,
    );
  }
  const resource = await requireResource(scope, input.resourceType, input.resourceId);
  const errors: string[] = [];
  const contents: [string, Record<string, unknown>][] = [];
  for (const file of files) {
    try {
      contents.push([localeOfFile(file.filename)!, parseJsonObject(file)]);
    } catch (error) {
      errors.push(`Failed to process file '${file.filename}': ${(error as Error).message}`);
    }
  }
  await putTranslations(scope, resource, contents, new Date().toISOString());
  return { totalFiles: files.length, successfulUploads: files.length - errors.length, failedUploads: errors.length, errors };
}

/** `POST /v2/translations/master-json/upload`: exactly one `<locale>.json` file holding a master JSON. */
export async function uploadMasterJson(scope: EnvScope, input: UploadMasterJsonInput): Promise<ImportMasterJsonResult> {
  const files = input.file ?? [];
  if (files.length === 0) throw new BadRequestError('A master JSON file is required (field "file")');
  if (files.length > 1) throw new BadRequestError('Only one master JSON file can be uploaded at a time');
  const [file] = files as [UploadedTranslationFile];
  assertNamedByLocale([file]);
  let masterJson: Record<string, unknown>;
  try {
    masterJson = parseJsonObject(file);
  } catch (error) {
    throw new BadRequestError(`Invalid master JSON file '${file.filename}': ${(error as Error).message}`);
  }
  const section = (name: string) => {
    const value = masterJson[name];
    if (value === undefined) return {};
    if (
      value === null ||
      typeof value !== 'object' ||
      Array.isArray(value) ||
      Object.values(value).some((c) => c === null || typeof c !== 'object' || Array.isArray(c) || !fitsContentLimit(c))
    ) {
      throw new BadRequestError(
        `Invalid master JSON file '${file.filename}': "${name}" must map ids to objects of at most ${MAX_CONTENT_BYTES} bytes`,
      );
    }
    return value as Record<string, Record<string, unknown>>;
  };
  return importMasterJson(scope, {
    locale: localeOfFile(file.filename)!,
    masterJson: { workflows: section('workflows'), layouts: section('layouts') },
  });
}
