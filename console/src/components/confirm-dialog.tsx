import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorNote } from './states.tsx';

// Asking, in a modal `<dialog>`, before something that cannot be undone (a delete, a secret
// rotated, a workflow switched off). The browser gives the dialog focus trapping and Escape; the
// API's refusal is shown inside it, so a person reads why (a layout in use) where they asked.
// ConfirmButton is the usual shape (a button that asks); ConfirmDialog alone serves a form whose
// submit asks only sometimes (the workflow editor's save that deactivates).

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  /** Cancel, Escape or the dialog closed otherwise. */
  onCancel: () => void;
  pending?: boolean;
  error?: unknown;
  children: ReactNode;
}

export function ConfirmDialog({ open, title, confirmLabel, onConfirm, onCancel, pending = false, error, children }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-label={title} onClose={() => open && onCancel()}>
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

export interface ConfirmButtonProps<T> {
  label: string;
  className?: string;
  /** While another action on the same record runs. */
  disabled?: boolean;
  title: string;
  confirmLabel: string;
  /** What the confirmation does (an API call). */
  run: () => Promise<T>;
  /** After it succeeded, the dialog closed. */
  onDone?: (result: T) => unknown;
  children: ReactNode;
}

export function ConfirmButton<T>({
  label,
  className = 'secondary',
  disabled = false,
  title,
  confirmLabel,
  run,
  onDone,
  children,
}: ConfirmButtonProps<T>) {
  const [asking, setAsking] = useState(false);
  const action = useMutation({
    mutationFn: run,
    onSuccess: async (result) => {
      setAsking(false);
      await onDone?.(result);
    },
  });
  const cancel = () => {
    setAsking(false);
    action.reset();
  };

  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
      <ConfirmDialog
        open={asking}
        title={title}
        confirmLabel={confirmLabel}
        onConfirm={() => action.mutate()}
        onCancel={cancel}
        pending={action.isPending}
        error={action.error}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}
