import { load } from 'cheerio';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEmailContent, emailBody } from '#lib/pipeline/steps/email-content.ts';
import { safeHtml, safeUrl } from '#lib/pipeline/steps/sanitize.ts';
import { renderHtmlTemplate, renderTemplate } from '#lib/workflows/templates.ts';
import { HTML_VECTORS, URL_VECTORS, dangersIn, unsafeUrl } from '../support/xss.ts';

// The sanitizer and the inliner are loaded on first use (lib/lazy.ts), as a step loads them.
beforeAll(() => loadEmailContent());

// The sanitizer on its own (lib/pipeline/steps/sanitize.ts) and the email body's Liquid escaping.
// "Safe" is judged by parsing the output as a browser does (test/support/xss.ts), not by looking
// for strings. test/integration/content-safety.test.ts runs the same vectors through the pipeline.

/** The document a browser builds from `html`, serialized: equal when two fragments mean the same. */
const parsed = (html: string) => load(html).html();

describe('the oracle', () => {
  // Every vector but two is dangerous as sent; those two are mis-parsing tricks aimed at a
  // sanitizer's parser (a raw-text <xmp>, a tag cut off by the end of input).
  it.each(HTML_VECTORS.filter(([name]) => name !== 'xmp' && name !== 'unclosed tag'))('sees the danger in %s', (_, html) => {
    expect(dangersIn(html)).not.toEqual([]);
  });

  it.each(URL_VECTORS)('sees the danger in the URL %s', (_, url) => {
    expect(unsafeUrl(url)).toBeDefined();
  });
});

describe.each(['in-app', 'email'] as const)('safeHtml, %s', (kind) => {
  it.each(HTML_VECTORS)('leaves nothing that runs of %s', (_, html) => {
    expect(dangersIn(safeHtml(html, kind))).toEqual([]);
    expect(dangersIn(safeHtml(`<p>Hello</p>${html}<p>Bye</p>`, kind))).toEqual([]);
  });

  it('keeps text without markup exactly as it is, ampersands and references included', () => {
    expect(safeHtml('Tom & Jerry &lt;3 "quoted" it\'s', kind)).toBe('Tom & Jerry &lt;3 "quoted" it\'s');
  });

  it('keeps ordinary formatting, https links and images', () => {
    const html =
      '<p>Hello <b>Ada</b> &amp; <i>team</i>, see <a href="https://acme.test/a?b=1&amp;c=2" target="_blank">this</a>' +
      ' <img src="https://cdn.acme.test/a.png" alt="A" width="40" height="40"></p>' +
      '<ul><li><em>one</em></li><li><code>two</code></li></ul><p style="color: #333; font-weight: 600">styled</p>' +
      '<a href="mailto:help@acme.test">mail</a> <a href="/inbox/42">relative</a>';
    expect(parsed(safeHtml(html, kind))).toBe(parsed(html));
  });

  it('keeps CSS that loads nothing but https', () => {
    const html = '<p style="background: url(https://cdn.acme.test/bg.png) no-repeat; color: red">x</p>';
    expect(safeHtml(html, kind)).toBe(html);
  });

  it('drops data: images', () => {
    expect(safeHtml('<img src="data:image/png;base64,iVBORw0KGgo=" alt="x">', kind)).toBe('<img alt="x" />');
  });
});

describe('safeHtml, in-app only', () => {
  it('drops <style> blocks, which would restyle the page the inbox is in', () => {
    expect(safeHtml('<style>body { display: none }</style><p>x</p>', 'in-app')).toBe('<p>x</p>');
  });
});

describe('safeHtml, email only', () => {
  const document =
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Welcome</title><style>.btn { background-color: #0055ff; } ' +
    '@media (max-width: 600px) { .col { width: 100% !important; } }</style></head>' +
    '<body bgcolor="#f4f4f5" style="margin: 0"><center>' +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff">' +
    '<tr><td align="center" valign="top" class="col" style="padding: 24px; font-family: Arial, sans-serif">' +
    '<h1 style="color: #111111">Welcome</h1><p>Hello <strong>Ada</strong> &amp; team</p>' +
    '<a class="btn" href="https://acme.test/start?x=1&amp;y=2" target="_blank" ' +
    'style="display: inline-block; padding: 12px 20px; color: #ffffff">Start</a>' +
    '<img src="https://cdn.acme.test/logo.png" alt="Acme" width="120" height="40" border="0"><img src="cid:logo@acme" alt="">' +
    '<font color="#888888" face="Arial" size="2">footer</font></td></tr></table></center></body></html>';

  it('keeps a whole table-layout document as the author wrote it: doctype, head, <style>, attributes, cid: images', () => {
    const clean = safeHtml(document, 'email');
    expect(clean).toMatch(/^<!DOCTYPE html>/);
    expect(parsed(clean)).toBe(parsed(document));
  });

  it('keeps the XHTML doctype of older templates', () => {
    const xhtml =
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';
    expect(safeHtml(`${xhtml}<html><body><p>x</p></body></html>`, 'email')).toBe(`${xhtml}\n<html><body><p>x</p></body></html>`);
  });

  it('drops a <style> block hiding script, and keeps the others', () => {
    expect(safeHtml('<style>p { color: red }</style><style>p { width: expression(alert(1)) }</style><p>x</p>', 'email')).toBe(
      '<style>p { color: red }</style><p>x</p>',
    );
  });

  it('drops <meta http-equiv=refresh> even to an https page, and keeps the content-type meta', () => {
    expect(
      safeHtml(
        '<meta http-equiv="refresh" content="0;url=https://evil.test"><meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
        'email',
      ),
    ).toBe('<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />');
  });
});

describe('safeUrl', () => {
  it.each(URL_VECTORS)('drops or neutralizes %s', (_, url) => {
    expect(unsafeUrl(safeUrl(url, 'link'))).toBeUndefined();
    expect(unsafeUrl(safeUrl(url, 'image'))).toBeUndefined();
  });

  it('drops URLs to script and data schemes', () => {
    for (const [, url] of URL_VECTORS.filter(([name]) => name !== 'attribute break-out')) expect(safeUrl(url, 'link')).toBeUndefined();
  });

  it('keeps links as rendered: https with a query, relative, protocol-relative, mailto, tel; images over http(s) only', () => {
    for (const url of [
      'https://acme.test/a?b=1&c=2#top',
      '/inbox/42',
      'inbox/42?tab=all',
      '//cdn.acme.test/x',
      'mailto:help@acme.test',
      'tel:+15550100',
      '',
    ]) {
      expect(safeUrl(url, 'link')).toBe(url);
    }
    expect(safeUrl('https://cdn.acme.test/a.png', 'image')).toBe('https://cdn.acme.test/a.png');
    expect(safeUrl('mailto:help@acme.test', 'image')).toBeUndefined();
  });

  it('percent-encodes the characters that would end an HTML attribute, as a browser requests them', () => {
    expect(safeUrl('https://acme.test/search?q="a"<b>`', 'link')).toBe('https://acme.test/search?q=%22a%22%3Cb%3E%60');
  });
});

describe('email body: Liquid output is HTML-escaped, then the body is sanitized', () => {
  const attack = '<img src=x onerror=alert(1)>';
  const variables = { payload: { x: attack, name: 'Tom & Jerry', html: '<b>bold</b>', n: 3 }, subscriber: { firstName: '<i>Ada</i>' } };

  it('inserts payload and subscriber values as text', () => {
    const body = emailBody(
      { body: '<p>{{payload.x}}</p><p>{{subscriber.firstName}} and {{payload.name}}: {{payload.n | plus: 1}}</p>' },
      variables,
      { inLayout: true },
    );
    const $ = load(body);
    expect($('p').first().text()).toBe(attack);
    expect($('p').last().text()).toBe('<i>Ada</i> and Tom & Jerry: 4');
    expect($('img, i')).toHaveLength(0);
  });

  it('does not escape twice what the author escaped', () => {
    expect(renderHtmlTemplate('{{payload.name | escape}}', variables)).toBe('Tom &amp; Jerry');
  });

  it('lets the author insert markup with | raw, which is then sanitized', () => {
    expect(emailBody({ body: '<p>{{payload.html | raw}}</p>' }, variables, { inLayout: true })).toBe('<p><b>bold</b></p>');
    expect(emailBody({ body: '<p>{{payload.x | raw}}</p>' }, variables, { inLayout: true })).toBe('<p><img src="x" /></p>');
  });

  it('stores the body as rendered when the step sets disableOutputSanitization', () => {
    expect(
      emailBody({ body: '<p>{{payload.x | raw}}</p><script>track()</script>', disableOutputSanitization: true }, variables, {
        inLayout: true,
      }),
    ).toBe(`<p>${attack}</p><script>track()</script>`);
  });

  it('leaves text templates (subjects, in-app, sms, chat, push) unescaped', () => {
    expect(renderTemplate('{{payload.name}} {{payload.html}}', variables)).toBe('Tom & Jerry <b>bold</b>');
  });
});
