import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorNote } from './states.tsx';

// A modal `<dialog>` asking before something that cannot be undone (a delete, a secret rotated).
// The browser gives it focus trapping and Escape; the API's refusal is shown inside it, so a person
// reads why (a layout in use) where they asked.

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ open, title, children, confirmLabel, pending, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} aria-label={title} onClose={onCancel}>
      <article>
        <h2>{title}</h2>
        {children}
        {error ? <ErrorNote error={error} title="Refused" /> : null}
        <footer>
          <button type="button" className="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </button>
          <button type="button" className="contrast" onClick={onConfirm} disabled={pending} aria-busy={pending}>
            {confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
