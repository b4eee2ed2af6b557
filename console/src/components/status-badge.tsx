// One colour per state, the same in every view: done green, failed red, waiting/running amber,
// skipped/canceled grey. The word is always shown too, so colour is never the only signal.

const TONES: Record<string, 'ok' | 'bad' | 'wait' | 'off'> = {
  completed: 'ok',
  success: 'ok',
  sent: 'ok',
  delivered: 'ok',
  active: 'ok',
  failed: 'bad',
  error: 'bad',
  revoked: 'bad',
  warning: 'wait',
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

export function StatusBadge({ status }: { status: string }) {
  const tone = TONES[status.toLowerCase()] ?? 'wait';
  return <span className={`badge badge-${tone}`}>{status}</span>;
}
