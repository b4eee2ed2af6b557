import { useRef } from 'react';

/** The delete button and the modal `<dialog>` that asks before the integration goes. */
export function DeleteIntegrationDialog({ name, busy, onConfirm }: { name: string; busy: boolean; onConfirm: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="secondary" disabled={busy} aria-busy={busy} onClick={() => dialog.current?.showModal()}>
        Delete
      </button>
      <dialog ref={dialog} className="integration-dialog" aria-labelledby="delete-integration-title">
        <article>
          <h2 id="delete-integration-title">Delete {name}?</h2>
          <p>It will deliver no more messages. The console cannot bring it back.</p>
          <footer>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button
              type="button"
              onClick={() => {
                dialog.current?.close();
                onConfirm();
              }}
            >
              Delete integration
            </button>
          </footer>
        </article>
      </dialog>
    </>
  );
}
