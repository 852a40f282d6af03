/**
 * A modal confirmation built on the native <dialog>: the browser traps focus inside it, Escape
 * closes it, and focus returns to the button that opened it. The form's submit is the confirm.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  open: boolean;
  title: string;
  /** Label of the confirming (submit) button. */
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  /** False keeps the confirm button disabled (e.g. no preview yet). */
  canConfirm?: boolean;
  onConfirm(): void;
  onClose(): void;
  testId: string;
  children: ComponentChildren;
}

export function Dialog(props: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const titleId = `${props.testId}-title`;
  return (
    <dialog ref={ref} aria-labelledby={titleId} data-testid={props.testId} onClose={props.onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          props.onConfirm();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <div class="dialog-buttons">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="submit"
            class={props.danger ? 'danger' : 'primary'}
            disabled={props.busy || props.canConfirm === false}
          >
            {props.busy ? 'Sending…' : props.confirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
