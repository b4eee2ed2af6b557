import { route } from '#infra/routes/engagement.ts';
import { recordClick } from '#lib/engagement/record-click.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { notFoundPage, redirectTo } from '#lib/http/pages.ts';

export const handler = httpHandler(route('followTrackedLink'), async ({ params }) => {
  const click = await recordClick(params.token);
  return click ? redirectTo(click.url) : notFoundPage();
});
