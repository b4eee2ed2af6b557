import { load, type CheerioAPI } from 'cheerio';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlockNode } from '#lib/email/block/document.ts';
import { parseBlockDocument } from '#lib/email/block/document.ts';
import { renderBlockEmail } from '#lib/email/block/render.ts';
import { loadEmailContent, emailBody } from '#lib/pipeline/steps/email-content.ts';
import { readTemplates } from '#lib/workflows/templates.ts';
import { doc, n, t, v } from '../support/block-document.ts';
import { HTML_VECTORS, URL_VECTORS, dangersIn } from '../support/xss.ts';

// The sanitizer and the inliner are loaded on first use (lib/lazy.ts), as a step loads them.
beforeAll(() => loadEmailContent());

// The block-editor renderer (lib/email/block) per node kind and mark: the HTML is parsed as a
// browser or mail client would (cheerio) and what a reader sees is checked, the structure, the
// attributes and the styles, not the text of the markup.

const p = (...content: BlockNode[]) => n('paragraph', { textAlign: null, showIfKey: null }, content);

const render = (body: string, variables: Record<string, unknown> = {}, fragment = true): CheerioAPI =>
  load(renderBlockEmail(body, variables, { fragment }));

/** A style attribute as a map of declarations. */
function styles(style: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (style ?? '')
      .split(';')
      .filter((d) => d.includes(':'))
      .map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]),
  );
}

describe('documents', () => {
  it('parses a document and names what is wrong with one that is not', () => {
    expect(parseBlockDocument(doc(p(t('hi'))))).toMatchObject({ ok: true, doc: { type: 'doc' } });
    expect(parseBlockDocument('{"type":"doc"')).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
    expect(parseBlockDocument(JSON.stringify({ type: 'paragraph' }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('root must be a doc'),
    });
    expect(parseBlockDocument(doc(p(t('a')), n('video', { src: 'x' })))).toEqual({
      ok: false,
      message: 'Node type "video" is not supported at content[1]',
    });
    expect(parseBlockDocument(doc(p(t('a', [{ type: 'highlight' }]))))).toMatchObject({
      ok: false,
      message: expect.stringContaining('Mark type "highlight"'),
    });
    expect(parseBlockDocument(doc(n('column', {}, [p(t('a'))])))).toMatchObject({
      ok: false,
      message: expect.stringContaining('column must be inside columns'),
    });
    expect(parseBlockDocument(doc({ type: 'paragraph', content: 'x' } as never))).toMatchObject({
      ok: false,
      message: expect.stringContaining('content[0].content'),
    });
  });

  it('refuses a document nested deeper than any editor makes one, without overflowing the stack', () => {
    const open = '{"type":"blockquote","content":['.repeat(5000);
    const deep = `{"type":"doc","content":[${open}{"type":"text","text":"x"}${']}'.repeat(5000)}]}`;
    expect(parseBlockDocument(deep)).toEqual({ ok: false, message: 'nodes are nested more than 50 deep' });
  });

  it('throws a readable error for an invalid document', () => {
    expect(() => renderBlockEmail(doc(n('video')), {}, { fragment: true })).toThrow(
      /not a valid block-editor document: Node type "video" is not supported/,
    );
  });
});

describe('text blocks', () => {
  it('paragraphs with alignment, the reference sizes and colour, and an empty one kept', () => {
    const $ = render(doc(n('paragraph', { textAlign: 'center' }, [t('Hello')]), p()));
    const [first, empty] = $('p')
      .toArray()
      .map((e) => $(e));
    expect(first!.text()).toBe('Hello');
    expect(styles(first!.attr('style'))).toMatchObject({
      'text-align': 'center',
      'font-size': '14px',
      'line-height': '20px',
      color: '#374151',
    });
    expect(empty!.text()).toBe('\u00a0');
  });

  it('headings 1 to 3 with their sizes', () => {
    const $ = render(doc(...[1, 2, 3].map((level) => n('heading', { level }, [t(`H${level}`)]))));
    expect($('h1').text()).toBe('H1');
    expect(styles($('h1').attr('style'))).toMatchObject({ 'font-size': '30px', 'font-weight': '600', color: '#111827' });
    expect(styles($('h2').attr('style'))['font-size']).toBe('24px');
    expect(styles($('h3').attr('style'))['font-size']).toBe('18px');
  });

  it('lists, quotes, the footer, a line break, the divider and a spacer', () => {
    const $ = render(
      doc(
        n('bulletList', {}, [n('listItem', {}, [p(t('one'))]), n('listItem', {}, [p(t('two'))])]),
        n('orderedList', { start: 3 }, [n('listItem', {}, [p(t('three'))])]),
        n('blockquote', {}, [p(t('quoted'))]),
        p(t('line'), n('hardBreak'), t('next')),
        n('horizontalRule'),
        n('spacer', { height: 24 }),
        n('footer', { textAlign: 'center' }, [t('Unsubscribe')]),
      ),
    );
    expect(
      $('ul > li')
        .toArray()
        .map((e) => $(e).text()),
    ).toEqual(['one', 'two']);
    expect($('ol').attr('start')).toBe('3');
    expect($('ol > li').text()).toBe('three');
    expect($('blockquote p').text()).toBe('quoted');
    expect($('p:contains("line") br')).toHaveLength(1);
    expect($('hr')).toHaveLength(1);
    const spacer = $('td').filter((_, e) => styles($(e).attr('style')).height === '24px');
    expect(spacer).toHaveLength(1);
    const foot = $('p').last();
    expect(foot.text()).toBe('Unsubscribe');
    expect(styles(foot.attr('style'))).toMatchObject({ color: '#64748B', 'text-align': 'center' });
  });

  it('drops a paragraph margin before a spacer and at the end of a section', () => {
    const $ = render(doc(p(t('a')), n('spacer'), n('section', {}, [p(t('b')), p(t('c'))])));
    const margin = (text: string) => styles($(`p:contains("${text}")`).attr('style')).margin;
    expect([margin('a'), margin('b'), margin('c')]).toEqual(['0 0 0 0', '0 0 10px 0', '0 0 0 0']);
  });

  it('an HTML code block is the author’s HTML, payload values in it escaped', () => {
    const $ = render(doc(n('htmlCodeBlock', { language: 'html' }, [t('<div class="x"><b>Hi</b> '), v('payload.name'), t('</div>')])), {
      payload: { name: '<i>Ann</i>' },
    });
    expect($('div.x b').text()).toBe('Hi');
    expect($('div.x').text()).toBe('Hi <i>Ann</i>');
    expect($('div.x i')).toHaveLength(0);
  });
});

describe('marks', () => {
  const marked = (marks: BlockNode['marks']) => render(doc(p(t('word', marks))));

  it.each([
    ['bold', 'strong'],
    ['italic', 'em'],
    ['underline', 'u'],
    ['strike', 's'],
    ['code', 'code'],
  ])('%s is <%s>', (mark, tag) => {
    expect(marked([{ type: mark }])(`p ${tag}`).text()).toBe('word');
  });

  it('textStyle colours the text; a colour that is not plain CSS is dropped', () => {
    expect(styles(marked([{ type: 'textStyle', attrs: { color: '#ff0000' } }])('p span').attr('style')).color).toBe('#ff0000');
    expect(marked([{ type: 'textStyle', attrs: { color: 'red;background:url(x)' } }])('p span')).toHaveLength(0);
  });

  it('a link is an underlined <a> opening in a new tab; marks nest with the link outside', () => {
    const $ = marked([{ type: 'bold' }, { type: 'link', attrs: { href: 'https://acme.test/a?b=1&c=2', target: '_blank' } }]);
    const a = $('p > a');
    expect(a.attr('href')).toBe('https://acme.test/a?b=1&c=2');
    expect(a.attr('target')).toBe('_blank');
    expect(a.attr('rel')).toBe('noopener noreferrer nofollow');
    expect(styles(a.attr('style'))['text-decoration']).toBe('underline');
    expect(a.children('strong').text()).toBe('word');
  });

  it('a link whose href is a variable', () => {
    const $ = render(doc(p(t('open', [{ type: 'link', attrs: { href: 'payload.url', isUrlVariable: true } }]))), {
      payload: { url: 'https://acme.test/x' },
    });
    expect($('a').attr('href')).toBe('https://acme.test/x');
  });
});

describe('variables', () => {
  it('by id, by alias, with a fallback, and Liquid inside text', () => {
    const $ = render(
      doc(
        p(
          v('subscriber.firstName'),
          t(', '),
          v('name', { aliasFor: 'payload.user.name' }),
          t(' / '),
          v('payload.missing', { fallback: "it's none" }),
          t(' {{ payload.count | plus: 1 }}'),
        ),
      ),
      { subscriber: { firstName: 'Ada' }, payload: { user: { name: 'Bob' }, count: 2 } },
    );
    expect($('p').text()).toBe("Ada, Bob / it's none 3");
  });

  it('keeps a variable’s marks', () => {
    const $ = render(doc(p({ ...v('payload.name'), marks: [{ type: 'bold' }] })), { payload: { name: 'Ann' } });
    expect($('p strong').text()).toBe('Ann');
  });

  it('a layout’s content variable is replaced by the HTML given, unescaped', () => {
    const $ = load(
      renderBlockEmail(doc(p(v('content'))), {}, { fragment: true, content: '<table class="inner"><tr><td>Body</td></tr></table>' }),
    );
    expect($('table.inner td').text()).toBe('Body');
    // A paragraph holding only the slot is a <div>: a <p> cannot hold the body's blocks.
    expect($('div > table.inner')).toHaveLength(1);
    expect($('p')).toHaveLength(0);
  });
});

describe('buttons and images', () => {
  it('a filled, round button with its colours, padding and alignment', () => {
    const $ = render(
      doc(
        n('button', {
          text: 'Pay now',
          url: 'https://acme.test/pay',
          alignment: 'center',
          variant: 'filled',
          borderRadius: 'round',
          buttonColor: '#0055ff',
          textColor: '#ffffff',
        }),
      ),
    );
    const a = $('a');
    expect(a.text()).toBe('Pay now');
    expect(a.attr('href')).toBe('https://acme.test/pay');
    expect(a.closest('td').attr('align')).toBe('center');
    expect(styles(a.attr('style'))).toMatchObject({
      'background-color': '#0055ff',
      color: '#ffffff',
      'border-radius': '9999px',
      padding: '12px 32px 12px 32px',
      border: '2px solid #0055ff',
    });
  });

  it('an outline button whose text and url are variables', () => {
    const $ = render(
      doc(
        n('button', {
          text: 'payload.label',
          isTextVariable: true,
          url: 'payload.url',
          isUrlVariable: true,
          variant: 'outline',
          buttonColor: '#111111',
        }),
      ),
      {
        payload: { label: 'Open order', url: 'https://acme.test/o/1' },
      },
    );
    const a = $('a');
    expect([a.text(), a.attr('href')]).toEqual(['Open order', 'https://acme.test/o/1']);
    expect(styles(a.attr('style'))).toMatchObject({ 'background-color': 'transparent', color: '#111111' });
  });

  it('an image with its size, alignment, rounding and link; a variable source', () => {
    const $ = render(
      doc(
        n('image', {
          src: 'https://cdn.acme.test/a.png',
          alt: 'A',
          width: 200,
          height: 'auto',
          alignment: 'right',
          borderRadius: 8,
          externalLink: 'https://acme.test',
        }),
        n('image', { src: 'payload.img', isSrcVariable: true }),
      ),
      { payload: { img: 'https://cdn.acme.test/b.png' } },
    );
    const [a, b] = $('img')
      .toArray()
      .map((e) => $(e));
    expect(a!.attr('src')).toBe('https://cdn.acme.test/a.png');
    expect(a!.attr('alt')).toBe('A');
    expect(a!.attr('width')).toBe('200');
    expect(a!.closest('td').attr('align')).toBe('right');
    expect(styles(a!.attr('style'))['border-radius']).toBe('8px');
    expect(a!.parent('a').attr('href')).toBe('https://acme.test');
    expect(b!.attr('src')).toBe('https://cdn.acme.test/b.png');
    expect(b!.closest('td').attr('align')).toBe('center');
  });

  it('an inline image and a logo by size', () => {
    const $ = render(
      doc(
        p(t('by '), n('inlineImage', { src: 'https://cdn.acme.test/i.png', width: 16, height: 16 })),
        n('logo', { src: 'https://cdn.acme.test/l.png', size: 'lg', alignment: 'center' }),
      ),
    );
    expect($('p img').attr('width')).toBe('16');
    const logo = $('img').last();
    expect([logo.attr('width'), logo.attr('height'), logo.closest('td').attr('align')]).toEqual(['64', '64', 'center']);
  });
});

describe('sections and columns', () => {
  it('a section is a padded, coloured, bordered box', () => {
    const $ = render(
      doc(
        n('section', { backgroundColor: '#f7f7f7', borderWidth: 1, borderColor: '#e2e2e2', borderRadius: 6, paddingTop: 16 }, [
          p(t('inside')),
        ]),
      ),
    );
    const cell = $('p').closest('td');
    expect(styles(cell.attr('style'))).toMatchObject({
      'background-color': '#f7f7f7',
      border: '1px solid #e2e2e2',
      'border-radius': '6px',
      padding: '16px 8px 8px 8px',
    });
  });

  it('columns side by side: fixed widths kept, auto columns share the rest, stacking on small screens', () => {
    const $ = render(
      doc(
        n('columns', { gap: 8 }, [
          n('column', { width: 50 }, [p(t('a'))]),
          n('column', { width: 'auto' }, [p(t('b'))]),
          n('column', { width: 'auto' }, [p(t('c'))]),
        ]),
      ),
    );
    const cells = $('tr.tab-row-full > td.tab-col-full');
    expect(cells.toArray().map((e) => [$(e).attr('width'), $(e).text()])).toEqual([
      ['50%', 'a'],
      ['25%', 'b'],
      ['25%', 'c'],
    ]);
  });

  it('a whole document: doctype, mail-client meta tags, the stacking rule and a centred 600px column', () => {
    const html = renderBlockEmail(doc(p(t('x'))), {}, { fragment: false });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    const $ = load(html);
    expect($('html').attr('lang')).toBe('en');
    expect($('meta[name="x-apple-disable-message-reformatting"]')).toHaveLength(1);
    expect($('style').text()).toContain('.tab-col-full');
    expect(styles($('body > table').attr('style'))['max-width']).toBe('600px');
    expect($('body > table p').text()).toBe('x');
  });
});

describe('show-if and repeat', () => {
  it.each([
    [true, true],
    ['yes', true],
    [1, true],
    [false, false],
    [0, false],
    ['false', false],
    [null, false],
    [undefined, false],
  ])('showIfKey %s shows the node: %s', (value, visible) => {
    const $ = render(
      doc(
        n('section', { showIfKey: 'payload.flag' }, [p(t('secret'))]),
        n('button', { text: 'Go', url: 'https://a.test', showIfKey: 'payload.flag' }),
        p(t('always')),
      ),
      { payload: { flag: value } },
    );
    expect($('p:contains("secret")')).toHaveLength(visible ? 1 : 0);
    expect($('a')).toHaveLength(visible ? 1 : 0);
    expect($('p:contains("always")')).toHaveLength(1);
  });

  it('repeats its children per item of a payload list, aliases naming the item', () => {
    const items = [
      { name: 'Pen', price: 2 },
      { name: 'Ink', price: 5 },
      { name: 'Pad', price: 3 },
    ];
    const $ = render(
      doc(
        n('repeat', { each: 'payload.items', iterations: 0 }, [
          p(v('payload.items.name'), t(': '), v('current.price'), t(' {{ payload.items.name | upcase }}')),
          n('button', { text: 'Buy', url: 'https://shop.test/{{ payload.items.name }}' }),
        ]),
      ),
      { payload: { items } },
    );
    expect(
      $('p')
        .toArray()
        .map((e) => $(e).text()),
    ).toEqual(['Pen: 2 PEN', 'Ink: 5 INK', 'Pad: 3 PAD']);
    expect(
      $('a')
        .toArray()
        .map((e) => $(e).attr('href')),
    ).toEqual(['https://shop.test/Pen', 'https://shop.test/Ink', 'https://shop.test/Pad']);
  });

  it('takes the first `iterations` items; the deprecated `for` too; a missing list repeats nothing', () => {
    const items = ['a', 'b', 'c', 'd'].map((name) => ({ name }));
    const $ = render(
      doc(
        n('repeat', { each: 'payload.items', iterations: 2 }, [p(v('payload.items.name'))]),
        n('for', { each: '{{ payload.items }}' }, [n('heading', { level: 2 }, [v('current.name')])]),
        n('repeat', { each: 'payload.none' }, [p(t('never'))]),
      ),
      { payload: { items } },
    );
    expect(
      $('p')
        .toArray()
        .map((e) => $(e).text()),
    ).toEqual(['a', 'b']);
    expect(
      $('h2')
        .toArray()
        .map((e) => $(e).text()),
    ).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a repeat over something that is not a list is an error', () => {
    expect(() =>
      renderBlockEmail(doc(n('repeat', { each: 'payload.x' }, [p(t('a'))])), { payload: { x: 'text' } }, { fragment: true }),
    ).toThrow(/not a list/);
  });

  it('nested repeats and a show-if inside a repeat see their own item', () => {
    const orders = [
      { id: 1, paid: true, lines: [{ sku: 'a' }, { sku: 'b' }] },
      { id: 2, paid: false, lines: [{ sku: 'c' }] },
    ];
    const $ = render(
      doc(
        n(
          'repeat',
          { each: 'payload.orders' },
          [
            n('heading', { level: 3 }, [t('Order {{ current.id }}')]),
            p({ ...t('paid'), type: 'text' }),
            n('repeat', { each: 'payload.orders.lines' }, [n('bulletList', {}, [n('listItem', {}, [p(v('payload.orders.lines.sku'))])])]),
          ].map((node, i) => (i === 1 ? { ...node, attrs: { showIfKey: 'payload.orders.paid' } } : node)),
        ),
      ),
      { payload: { orders } },
    );
    expect(
      $('h3')
        .toArray()
        .map((e) => $(e).text()),
    ).toEqual(['Order 1', 'Order 2']);
    expect($('p:contains("paid")')).toHaveLength(1);
    expect(
      $('li')
        .toArray()
        .map((e) => $(e).text()),
    ).toEqual(['a', 'b', 'c']);
  });

  it('a digest’s events through steps.<id>.events, as the editor’s digest block writes them', () => {
    const body = doc(
      n('section', { backgroundColor: '#FFFFFF', borderWidth: 0 }, [
        n('repeat', { each: 'steps.digest-step.events', isUpdatingKey: false, iterations: 2 }, [
          p(
            v('current.payload.userName', { aliasFor: 'steps.digest-step.events.payload.userName' }),
            t(' commented: '),
            v('current.payload.comment', { aliasFor: 'steps.digest-step.events.payload.comment' }),
          ),
        ]),
        p(v('steps.digest-step.eventCount | minus: 2'), t(' more')),
      ]),
    );
    const events = ['Ann', 'Bob', 'Cy'].map((userName) => ({ id: userName, payload: { userName, comment: `hi from ${userName}` } }));
    const $ = render(body, { steps: { 'digest-step': { events, eventCount: 3 } } });
    expect(
      $('p')
        .toArray()
        .map((e) => $(e).text()),
    ).toEqual(['Ann commented: hi from Ann', 'Bob commented: hi from Bob', '1 more']);
  });
});

describe('escaping and URLs', () => {
  const attacks = HTML_VECTORS.map(([, html]) => html);

  it.each(HTML_VECTORS)('%s from the payload is text in every text position', (_, x) => {
    const $ = render(
      doc(
        p(v('payload.x'), t(' {{ payload.x }}')),
        n('button', { text: 'payload.x', isTextVariable: true, url: 'https://a.test' }),
        n('image', { src: 'https://a.test/i.png', alt: 'alt' }),
      ),
      { payload: { x } },
    );
    expect(dangersIn($.html())).toEqual([]);
    expect($('p').text()).toBe(`${x} ${x}`);
    expect($('a').text()).toBe(x);
  });

  it.each(URL_VECTORS)('a %s URL from the payload goes nowhere: links, buttons, images', (_, url) => {
    const html = renderBlockEmail(
      doc(
        p(
          t('link', [{ type: 'link', attrs: { href: 'payload.u', isUrlVariable: true } }]),
          t(' '),
          t('inline', [{ type: 'link', attrs: { href: '{{ payload.u }}' } }]),
        ),
        n('button', { text: 'Go', url: 'payload.u', isUrlVariable: true }),
        n('image', { src: 'payload.u', isSrcVariable: true, externalLink: 'payload.u', isExternalLinkVariable: true }),
        n('logo', { src: '{{ payload.u }}' }),
        p(n('inlineImage', { src: 'payload.u', isSrcVariable: true })),
      ),
      { payload: { u: url } },
      { fragment: true },
    );
    expect(dangersIn(html)).toEqual([]);
    const $ = load(html);
    // The button and the texts stay (a link only where the URL was made harmless, encoded).
    expect($('a, span').filter((_, e) => $(e).text() === 'Go')).toHaveLength(1);
    expect($('p').first().text()).toBe('link\u00a0inline');
  });

  it('javascript: written by the author in the document is refused too', () => {
    const $ = render(
      doc(p(t('x', [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }])), n('button', { text: 'Go', url: 'JaVaScRiPt:alert(1)' })),
    );
    expect($('a')).toHaveLength(0);
  });

  it('through the email step with the sanitizer: nothing of any vector runs, in an HTML code block either', () => {
    for (const x of attacks) {
      const body = doc(n('htmlCodeBlock', {}, [t('<div>{{ payload.x | raw }}</div>')]), p(v('payload.x')));
      expect(dangersIn(emailBody({ body, editorType: 'block' }, { payload: { x } }, { inLayout: true }))).toEqual([]);
    }
  });
});

describe('template readings of a block body', () => {
  it('see variable ids, aliases, show-if keys, repeat lists (as their first item) and Liquid in texts and urls', () => {
    const body = doc(
      p(v('subscriber.firstName'), v('x', { aliasFor: 'payload.alias' }), t('{{ payload.inText }}')),
      n('section', { showIfKey: 'payload.show' }, [n('button', { text: 'Go', url: 'payload.link', isUrlVariable: true })]),
      n('repeat', { each: 'payload.items' }, [p(v('payload.items.name'), v('current.price'))]),
      n('image', { src: 'https://x.test/{{ payload.img }}' }),
    );
    const [reading] = readTemplates({ subject: 's', body });
    expect(reading).toMatchObject({ field: 'body', ok: true });
    const paths = reading!.ok ? reading!.variables.map((path) => path.join('.')) : [];
    expect(paths.sort()).toEqual(
      [
        'payload.alias',
        'payload.img',
        'payload.inText',
        'payload.items',
        'payload.items.0.name',
        'payload.items.0.price',
        'payload.link',
        'payload.show',
        'subscriber.firstName',
      ].sort(),
    );
  });

  it('a filter that does not exist in a variable is a reading that fails, as in an HTML body', () => {
    const [reading] = readTemplates({ body: doc(p(v('payload.n | nosuchfilter'))) });
    expect(reading).toMatchObject({ field: 'body', ok: false, kind: 'filter' });
  });
});
