// juice's inliner without its loader (see inline-css.ts); juice types only its main module.
declare module 'juice/lib/inline.js' {
  import type { CheerioAPI } from 'cheerio';
  import type juice from 'juice';

  export default function makeJuiceClient<T extends object>(
    base: T,
  ): T & {
    juiceDocument($: CheerioAPI, options?: juice.Options): CheerioAPI;
  };
}
