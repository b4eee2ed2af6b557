// Apart from the control schemas (controls.ts), which carry zod and the cron checker: the jobs
// consumer reads engagement without checking any control.

/** What a subscriber may do with a message that later steps can depend on (lib/pipeline/engagement.ts). */
export const ENGAGEMENT_EVENTS = ['seen', 'read', 'opened', 'clicked'] as const;
export type EngagementEvent = (typeof ENGAGEMENT_EVENTS)[number];
