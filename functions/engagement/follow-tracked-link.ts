import { route } from '#infra/routes/engagement.ts';
import { recordClick } from '#lib/engagement/record-click.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { notFoundPage, redirectTo } from '#lib/http/pages.ts';

export const handler = publicHttpHandler(route('followTrackedLink'), async ({ params }) => {
  const click = await recordClick(params.token);
  return click ? redirectTo(click.url) : notFoundPage();
});
