// One colour per state, the same in every view: done green, failed red, waiting/running amber,
// skipped/canceled grey. The word is always shown too, so colour is never the only signal.

const TONES: Record<string, 'ok' | 'bad' | 'wait' | 'off'> = {
  completed: 'ok',
  done: 'ok',
  read: 'ok',
  success: 'ok',
  sent: 'ok',
  delivered: 'ok',
  active: 'ok',
  failed: 'bad',
  error: 'bad',
  revoked: 'bad',
  warning: 'wait',
  waiting: 'wait',
  'partly sent': 'bad',
  pending: 'wait',
  queued: 'wait',
  running: 'wait',
  delayed: 'wait',
  merged: 'off',
  skipped: 'off',
  canceled: 'off',
  cancelled: 'off',
  inactive: 'off',
  draft: 'off',
};

/** `title`: the API's own word where the badge shows another (an execution detail's `Pending`). */
export function StatusBadge({ status, title }: { status: string; title?: string }) {
  // A phrase (`In-app sent, digest waiting`) takes the tone of its last word.
  const tone = TONES[status.toLowerCase()] ?? TONES[status.split(' ').pop()!.toLowerCase()] ?? 'wait';
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {status}
    </span>
  );
}
