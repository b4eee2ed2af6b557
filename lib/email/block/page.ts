// The whole HTML document a block email is when it goes without a layout, as the reference's
// renderer writes it: mail-client meta tags, a reset, the rule that stacks columns on narrow
// screens, and a centred 600px column. With a layout the body is a fragment and the layout is the
// document.

import { styleOf } from './html.ts';

const HEAD = [
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta http-equiv="X-UA-Compatible" content="IE=edge">',
  '<meta name="x-apple-disable-message-reformatting">',
  '<meta name="format-detection" content="telephone=no,address=no,email=no,date=no,url=no">',
  '<meta name="color-scheme" content="light">',
  '<meta name="supported-color-schemes" content="light">',
  '<style>body { margin: 0; padding: 0; } img { -ms-interpolation-mode: bicubic; } ' +
    '@media (max-width: 425px) { .tab-row-full { width: 100% !important; } ' +
    '.tab-col-full { display: block !important; width: 100% !important; } .tab-pad { padding: 0 !important; } }</style>',
].join('');

const COLUMN = styleOf({
  'max-width': '600px',
  'min-width': '300px',
  width: '100%',
  margin: '0 auto',
  padding: '1rem',
  'font-family': "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
});

const OPEN =
  `<!DOCTYPE html>\n<html lang="en" dir="ltr"><head>${HEAD}</head>` +
  `<body style="margin:0;padding:0;background-color:#ffffff">` +
  `<table role="presentation" align="center" width="100%" cellpadding="0" cellspacing="0" border="0"${COLUMN}>` +
  `<tbody><tr><td>`;

export const wholeDocument = (body: string): string => `${OPEN}${body}</td></tr></tbody></table></body></html>`;
