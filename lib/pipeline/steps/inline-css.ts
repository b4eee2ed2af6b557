import { lazy } from '../../lazy.ts';

// Every <style> rule of an email inlined into style attributes, since many mail clients drop
// <style> blocks. juice does the inlining (each rule applied by selector and specificity, media
// queries kept in a <style> block), but `import juice from 'juice'` also loads cheerio's full
// build (parse5, undici, iconv-lite) and juice's remote-resource inliner: ~1.4 MB of bundle for
// nothing, since juice parses with htmlparser2 (its `xml` option) and we inline no remote
// resources. So juice's inliner runs here over cheerio's slim build (htmlparser2 only), loaded
// with the options juice's own loader uses (`juice/lib/cheerio.js`), including its protection of
// `<% %>` and `{{ }}` blocks, so the output is juice's (test/unit/inline-css.test.ts compares).
// Both are loaded by the first email step or preview (lib/lazy.ts): `await loadInliner()` first.

const inliner = lazy('juice', async () => {
  const [{ load }, { default: makeJuiceClient }] = await Promise.all([import('cheerio/slim'), import('juice/lib/inline.js')]);
  return { load, juice: makeJuiceClient({}) };
});

export const loadInliner = async (): Promise<void> => void (await inliner.load());

const CODE_BLOCKS = [/<%([\S\s]*?)%>/g, /\{\{([\S\s]*?)\}\}/g];

export function inlineCss(html: string): string {
  const blocks: string[] = [];
  const protectedHtml = CODE_BLOCKS.reduce((text, re) => text.replace(re, (block) => `JUICE_CODE_BLOCK_${blocks.push(block) - 1}_`), html);
  const { load, juice } = inliner.get();
  const $ = load(protectedHtml, { xml: { decodeEntities: false, xmlMode: false } });
  juice.juiceDocument($, { preserveImportant: true });
  return $.html().replace(/JUICE_CODE_BLOCK_(\d+)_(="")?/gi, (_, index: string) => blocks[Number(index)] ?? '');
}
