import { route } from '#infra/routes/engagement.ts';
import { recordOpen } from '#lib/engagement/record-open.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { transparentPixel } from '#lib/http/pages.ts';

export const handler = publicHttpHandler(route('loadOpenPixel'), async ({ params, headers }) => {
  await recordOpen(params.token, headers);
  return transparentPixel();
});
