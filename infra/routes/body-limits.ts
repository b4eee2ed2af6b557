// Request body limits of the routes (larger bodies get 413).

const KB = 1024;
export const DEFAULT_BODY_LIMIT = 512 * KB;
/** Workflows carry whole email bodies (the reference allows 26 MB on /v2/workflows). */
export const WORKFLOW_BODY_LIMIT = 5 * 1024 * KB;
/** One trigger; bulk triggers carry up to 100 of them (the reference allows 26 MB on /v1/events). */
export const TRIGGER_BODY_LIMIT = DEFAULT_BODY_LIMIT;
export const BULK_TRIGGER_BODY_LIMIT = 10 * 1024 * KB;
/** Provider receipts: SendGrid posts its events in batches of up to about 768 KB. */
export const RECEIPT_BODY_LIMIT = 1024 * KB;
