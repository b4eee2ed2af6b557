import { route } from '#infra/routes/engagement.ts';
import { recordOpen } from '#lib/engagement/record-open.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { transparentPixel } from '#lib/http/pages.ts';

export const handler = httpHandler(route('loadOpenPixel'), async ({ params, headers }) => {
  await recordOpen(params.token, headers);
  return transparentPixel();
});
