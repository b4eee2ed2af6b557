import { AppError, BadRequestError } from '../errors.ts';
import { isAllowedVariable } from '../workflows/variables.ts';
import { readTemplates } from '../workflows/templates.ts';
import type { LayoutControlValues, LayoutEmailControls } from './schemas.ts';
import { LAYOUT_VARIABLES } from './variables.ts';

// What a layout's email content must be, checked when it is written (the reference's rules):
// an HTML layout is a whole document (`<html>` and `<body>`) with a `{{content}}` slot; a block
// layout is an editor document (`{type: 'doc', content: [...]}`) with a `variable` node whose id
// is `content`. Its Liquid may only name the layout's variables (variables.ts) and translation
// keys (`t.*`). A content of the wrong kind is a 400 as the reference words it; content that is
// the right kind but has issues is a 400 "Layout has validation issues" naming the field in
// `errors`.

const FIELD = 'controlValues.email.body';
export const CONTENT_SLOT = /\{\{\s*content\s*\}\}/;

const isHtmlDocument = (body: string) => ['<html', '</html>', '<body', '</body>'].every((tag) => body.includes(tag));

function editorDocument(body: string): { content: unknown[] } | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (
      parsed &&
      typeof parsed === 'object' &&
      (parsed as { type?: unknown }).type === 'doc' &&
      Array.isArray((parsed as { content?: unknown }).content)
    ) {
      return parsed as { content: unknown[] };
    }
  } catch {
    // not JSON: not an editor document
  }
  return undefined;
}

function hasContentVariable(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasContentVariable);
  if (!node || typeof node !== 'object') return false;
  const { type, attrs, content } = node as { type?: unknown; attrs?: { id?: unknown }; content?: unknown };
  return (type === 'variable' && attrs?.id === 'content') || hasContentVariable(content);
}

function issuesOf(email: LayoutEmailControls): string[] {
  if (email.editorType === 'block') {
    const document = editorDocument(email.body);
    if (!document) throw new BadRequestError('Content must be a valid Maily JSON content');
    return hasContentVariable(document.content) ? [] : ['The layout body should contain the "content" variable'];
  }
  if (!isHtmlDocument(email.body) || editorDocument(email.body)) throw new BadRequestError('Content must be a valid HTML content');
  const issues = CONTENT_SLOT.test(email.body) ? [] : ['The layout body should contain the "content" variable'];
  for (const reading of readTemplates({ body: email.body })) {
    if (!reading.ok) {
      issues.push(reading.message);
      continue;
    }
    for (const path of reading.variables) {
      // `{{t.key}}` is a translation, replaced before Liquid renders (lib/translations/translate.ts).
      if (path[0] === 't' && path.length > 1) continue;
      if (!isAllowedVariable(LAYOUT_VARIABLES, path)) {
        issues.push(`Variable ${path.join('.')} is not available in a layout: use subscriber.*, context.*, env.* or content`);
      }
    }
  }
  return issues;
}

/** Throws the 400 of the first rule the content breaks; null and no email values are valid. */
export function assertLayoutContent(values: LayoutControlValues | null | undefined): void {
  if (!values?.email) return;
  const issues = issuesOf(values.email);
  if (issues.length > 0) {
    throw new AppError(400, 'Layout has validation issues', { errors: { [FIELD]: { messages: issues, value: values.email.body } } });
  }
}
