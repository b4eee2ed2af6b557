import type { DeliveryProvider } from '../provider.ts';
import { chatWebhook } from './chat-webhook.ts';
import { discord } from './discord.ts';
import { getstream } from './getstream.ts';
import { grafanaOnCall } from './grafana-on-call.ts';
import { mattermost } from './mattermost.ts';
import { msteams } from './msteams.ts';
import { rocketChat } from './rocket-chat.ts';
import { ryver } from './ryver.ts';
import { slack, svcSlack } from './slack.ts';
import { telegram } from './telegram.ts';
import { whatsappBusiness } from './whatsapp-business.ts';
import { zulip } from './zulip.ts';

/** Chat providers by catalogue id. */
export const CHAT_PROVIDERS = {
  slack,
  discord,
  msteams,
  mattermost,
  'rocket-chat': rocketChat,
  zulip,
  'grafana-on-call': grafanaOnCall,
  'chat-webhook': chatWebhook,
  'whatsapp-business': whatsappBusiness,
  'svc-slack': svcSlack,
  ryver,
  getstream,
  telegram,
} satisfies Record<string, DeliveryProvider>;
