import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorNote } from './states.tsx';

// A button that asks, in a modal `<dialog>`, before something that cannot be undone (a delete, a
// secret rotated). The browser gives the dialog focus trapping and Escape; the API's refusal is
// shown inside it, so a person reads why (a layout in use) where they asked.

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
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (asking && !dialog.open) dialog.showModal();
    if (!asking && dialog.open) dialog.close();
  }, [asking]);
  const cancel = () => {
    setAsking(false);
    action.reset();
  };

  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
      <dialog ref={ref} aria-label={title} onClose={cancel}>
        <article>
          <h2>{title}</h2>
          {children}
          {action.error ? <ErrorNote error={action.error} title="Refused" /> : null}
          <footer>
            <button type="button" className="secondary" onClick={cancel} disabled={action.isPending}>
              Cancel
            </button>
            <button
              type="button"
              className="contrast"
              onClick={() => action.mutate()}
              disabled={action.isPending}
              aria-busy={action.isPending}
            >
              {confirmLabel}
            </button>
          </footer>
        </article>
      </dialog>
    </>
  );
}
