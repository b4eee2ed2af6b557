import { useEffect, useRef } from 'react';
import type { Blocker } from 'react-router';

/** Asks before a navigation would drop unsaved changes: stay (the default) or leave them. */
export function LeaveDialog({ blocker }: { blocker: Blocker }) {
  const ref = useRef<HTMLDialogElement>(null);
  const asking = blocker.state === 'blocked';
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (asking && !dialog.open) dialog.showModal();
    if (!asking && dialog.open) dialog.close();
  }, [asking]);
  return (
    <dialog ref={ref} aria-label="Unsaved changes" onClose={() => blocker.state === 'blocked' && blocker.reset()}>
      <article>
        <h2>Leave without saving?</h2>
        <p>The changes to this workflow are not saved yet. Leaving drops them.</p>
        <footer>
          <button type="button" onClick={() => blocker.reset?.()}>
            Stay and keep editing
          </button>
          <button type="button" className="secondary" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </button>
        </footer>
      </article>
    </dialog>
  );
}
