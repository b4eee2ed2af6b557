import juice from 'juice';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_LAYOUT_HTML } from '#lib/layouts/built-in.ts';
import { loadEmailContent, emailHtml } from '#lib/pipeline/steps/email-content.ts';
import { inlineCss } from '#lib/pipeline/steps/inline-css.ts';

// The sanitizer and the inliner are loaded on first use (lib/lazy.ts), as a step loads them.
beforeAll(() => loadEmailContent());

// The email inliner runs juice's inliner over cheerio's slim build (a smaller bundle); what a
// mail client gets must be exactly what juice itself gives.

const samples = [
  '<p>Just this</p>',
  '<style>.note { color: #ff0000; }</style><p class="note">Welcome Ada</p>',
  '<style>p { color: red !important; } #x p { color: blue; }</style><div id="x"><p style="margin: 0">a &amp; b &nbsp; ü</p></div>',
  '<style>td { width: 200px; background-color: #eee; text-align: center; } @media (max-width: 600px) { td { width: 100%; } }</style>' +
    '<table><tr><td>cell</td></tr></table>',
  '<style>a:hover { color: red; } a { color: blue; } img { height: 40px; }</style>' +
    '<a href="https://x.test/?a=1&b=2">link</a><img src="x.png"><br/>',
  '<style>.c::before { content: "» "; } :root { --brand: #123456; } .v { color: var(--brand); }</style><p class="c v">text</p>',
  '<div {{#if a}}class="a"{{/if}}>{{ name }}</div><p><% code %></p>',
  '<!DOCTYPE html><html><head><style>body { margin: 0 }</style></head><body><p>doc</p></body></html>',
];

describe('inlineCss', () => {
  it.each(samples)('gives juice’s output for %s', (html) => {
    expect(inlineCss(html)).toBe(juice(html, { preserveImportant: true }));
  });

  it('inlines the default layout and the body’s own rules, the body’s winning by order', () => {
    const layout = { body: BUILT_IN_LAYOUT_HTML, editorType: 'html' as const };
    const html = emailHtml('<style>.email-content { color: #000000; }</style><p>Hi</p>', {}, { subscriber: {} }, layout);
    expect(html).not.toContain('<style>');
    expect(html).toMatch(/<body style="margin: 0; padding: 0; background-color: #f4f4f5;">/);
    expect(html).toMatch(/class="email-content" style="[^"]*max-width: 600px;[^"]*color: #000000;/);
  });
});
