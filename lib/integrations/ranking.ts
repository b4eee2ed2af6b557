// Priority and primary of the active integrations of one environment and channel (email and sms
// only). The active ones form an ordered list, the primary (if any) first; priorities count down
// from the list's length to 1, so the highest priority is tried first. Every change to the list
// is one of the moves below, and the result says which integrations need new values.

export interface Ranked {
  _id: string;
  priority: number;
  primary: boolean;
}

export type RankMove =
  /** Joins the active list: first and primary when the channel has no primary, else just below it. */
  | { kind: 'activate'; id: string }
  /** Leaves the active list (deactivated, deleted or moved away). */
  | { kind: 'deactivate'; id: string }
  /** Becomes the primary, first in the list. */
  | { kind: 'setPrimary'; id: string }
  /** Stays in place but is no longer primary (e.g. it gained conditions). */
  | { kind: 'unsetPrimary'; id: string };

/** The active list ordered as it stands: highest priority first, ties by id (creation order). */
export function ordered(actives: readonly Ranked[]): Ranked[] {
  return [...actives].sort((a, b) => b.priority - a.priority || a._id.localeCompare(b._id));
}

export interface Ranking {
  /** The active list after the move, highest priority first. */
  order: Ranked[];
  /** New priority and primary of every integration whose values change, the moved one included. */
  changes: Map<string, { priority: number; primary: boolean }>;
}

/** Applies a move to the active list. */
export function rank(actives: readonly Ranked[], move: RankMove): Ranking {
  const list = ordered(actives.filter((a) => a._id !== move.id));
  const primaryOf = new Map(list.map((a) => [a._id, a.primary]));
  const before = new Map(actives.map((a) => [a._id, { priority: a.priority, primary: a.primary }]));
  const hasPrimary = list.some((a) => a.primary);
  const moved: Ranked = { _id: move.id, priority: 0, primary: false };

  switch (move.kind) {
    case 'activate':
      if (hasPrimary) list.splice(1, 0, moved);
      else list.unshift({ ...moved, primary: true });
      break;
    case 'setPrimary':
      for (const a of list) primaryOf.set(a._id, false);
      list.unshift({ ...moved, primary: true });
      break;
    case 'unsetPrimary': {
      const current = actives.find((a) => a._id === move.id);
      if (current)
        list.splice(
          ordered(actives).findIndex((a) => a._id === move.id),
          0,
          { ...current, primary: false },
        );
      break;
    }
    case 'deactivate':
      break;
  }

  const order = list.map((a, index) => ({
    _id: a._id,
    priority: list.length - index,
    primary: primaryOf.get(a._id) ?? a.primary,
  }));
  const after = new Map(order.map(({ _id, ...values }) => [_id, values]));
  if (move.kind === 'deactivate') after.set(move.id, { priority: 0, primary: false });

  const changes = new Map<string, { priority: number; primary: boolean }>();
  for (const [id, next] of after) {
    const prev = before.get(id);
    if (!prev || prev.priority !== next.priority || prev.primary !== next.primary) changes.set(id, next);
  }
  return { order, changes };
}
