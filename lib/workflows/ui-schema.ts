import type { StepType } from './model.ts';

// How an editor lays out each kind's controls (the API's UiSchema): the group and, per
// control, the component that edits it, following the reference's dashboard.

export type UiSchemaProperty = {
  component: string;
  placeholder?: unknown;
  properties?: Record<string, UiSchemaProperty>;
};
export type UiSchema = {
  group?: string;
  properties?: Record<string, UiSchemaProperty>;
};

const c = (component: string, placeholder?: unknown): UiSchemaProperty =>
  placeholder === undefined ? { component } : { component, placeholder };
const skip = c('QUERY_EDITOR');
const redirect = (): UiSchemaProperty => ({
  component: 'URL_TEXT_BOX',
  properties: { url: c('URL_TEXT_BOX', ''), target: c('URL_TEXT_BOX', '_self') },
});

const UI_SCHEMAS: Record<StepType, UiSchema> = {
  in_app: {
    group: 'IN_APP',
    properties: {
      subject: c('IN_APP_PRIMARY_SUBJECT'),
      body: c('IN_APP_BODY'),
      avatar: c('IN_APP_AVATAR'),
      primaryAction: c('IN_APP_BUTTON_DROPDOWN'),
      secondaryAction: c('IN_APP_BUTTON_DROPDOWN'),
      redirect: redirect(),
      disableOutputSanitization: c('IN_APP_DISABLE_SANITIZATION_SWITCH', false),
      data: c('DATA', {}),
      skip,
    },
  },
  email: {
    group: 'EMAIL',
    properties: {
      subject: c('TEXT_INLINE_LABEL'),
      body: c('EMAIL_BODY'),
      editorType: c('EMAIL_EDITOR_SELECT', 'block'),
      layoutId: c('LAYOUT_SELECT'),
      disableOutputSanitization: c('DISABLE_SANITIZATION_SWITCH', false),
      skip,
    },
  },
  sms: { group: 'SMS', properties: { body: c('SMS_BODY'), skip } },
  chat: { group: 'CHAT', properties: { body: c('CHAT_BODY'), skip } },
  push: { group: 'PUSH', properties: { subject: c('PUSH_SUBJECT'), body: c('PUSH_BODY'), skip } },
  digest: {
    group: 'DIGEST',
    properties: {
      type: c('DIGEST_TYPE', 'regular'),
      amount: c('DIGEST_AMOUNT', ''),
      unit: c('DIGEST_UNIT', 'seconds'),
      lookBackWindow: c('DIGEST_AMOUNT'),
      cron: c('DIGEST_CRON', ''),
      digestKey: c('DIGEST_KEY', ''),
      extendToSchedule: c('EXTEND_TO_SCHEDULE', false),
      skip,
    },
  },
  delay: {
    group: 'DELAY',
    properties: {
      type: c('DELAY_TYPE', 'regular'),
      amount: c('DELAY_AMOUNT', ''),
      unit: c('DELAY_UNIT', 'seconds'),
      cron: c('DELAY_CRON', ''),
      extendToSchedule: c('EXTEND_TO_SCHEDULE', false),
      skip,
    },
  },
  throttle: {
    group: 'THROTTLE',
    properties: {
      type: c('THROTTLE_TYPE', 'fixed'),
      amount: c('THROTTLE_WINDOW', ''),
      unit: c('THROTTLE_UNIT', 'minutes'),
      dynamicKey: c('THROTTLE_DYNAMIC_KEY', ''),
      threshold: c('THROTTLE_THRESHOLD', 1),
      throttleKey: c('THROTTLE_KEY', ''),
      skip,
    },
  },
  // UiSchema has no custom group: a custom step's controls are its own data.
  custom: { properties: { custom: c('DATA', {}) } },
};

export function uiSchemaOf(type: StepType): UiSchema {
  return UI_SCHEMAS[type];
}
