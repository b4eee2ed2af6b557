import { BadRequestError } from '../errors.ts';
import type { Severity } from '../workflows/model.ts';

// What an inbox list or count asks for, normalized from the several forms the client sends
// (lib/inbox/schemas.ts). Every present condition must hold.

export type Scalar = string | number | boolean;

/** `data.<path>` equals one of `values`. */
export interface DataCondition {
  path: string[];
  values: Scalar[];
}

export interface InboxFilter {
  read?: boolean;
  seen?: boolean;
  archived?: boolean;
  /** true: only snoozed; false: none snoozed. */
  snoozed?: boolean;
  /** Each group must share a tag with the message (AND of ORs). */
  tags?: string[][];
  data?: DataCondition[];
  severity?: Severity[];
  /** Epoch milliseconds. */
  createdGte?: number;
  createdLte?: number;
}

/**
 * The filter of exactly the unread messages (of some severities): the sparse unread index holds
 * only those, so it answers without reading anything else.
 */
export function isUnreadOnly(f: InboxFilter): boolean {
  return (
    f.read === false &&
    f.archived !== true &&
    f.snoozed !== true &&
    f.seen === undefined &&
    !f.tags?.length &&
    !f.data?.length &&
    f.createdGte === undefined &&
    f.createdLte === undefined
  );
}

/** The reference refuses this combination: an unread message is never archived. */
export function assertSupported(filter: InboxFilter): void {
  if (filter.read === false && filter.archived === true)
    throw new BadRequestError('Filtering for unread and archived notifications is not supported.');
}
