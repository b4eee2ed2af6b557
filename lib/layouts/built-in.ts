// The layout email steps were sent in before layouts were a resource: a minimal document that
// centres the content. New environments get it as their default layout (provision.ts), where it
// can be edited; an environment made before layouts existed, with none, still sends in it. Its
// rules are in a <style> block, inlined after rendering (inline-css.ts), rather than in style
// attributes, so a body's own rules for its classes (`.email-content { ... }`) still win by
// order, as in a browser.

const STYLE = `
body { margin: 0; padding: 0; background-color: #f4f4f5; }
.email-layout { width: 100%; background-color: #f4f4f5; padding: 24px 0; }
.email-content { max-width: 600px; margin: 0 auto; padding: 24px; background-color: #ffffff; color: #1f2937;
  font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; }
`;

export const BUILT_IN_LAYOUT_HTML = [
  '<!DOCTYPE html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  `<style>${STYLE}</style>`,
  '</head>',
  '<body><div class="email-layout"><div class="email-content">{{content}}</div></div></body>',
  '</html>',
].join('\n');

/** What a new environment's default layout is called (the reference's name and identifier). */
export const DEFAULT_LAYOUT = { layoutId: 'default-layout', name: 'Default layout' } as const;
