/** The message area: API errors (with the API's code) and confirmations, newest last, dismissable. */
import type { Message } from '../use-console.js';

export function Messages({ messages, dismiss }: { messages: Message[]; dismiss(id: number): void }) {
  return (
    <section class="messages" aria-label="Messages" aria-live="polite" data-testid="messages">
      {messages.map((m) => (
        <p key={m.id} class={`message ${m.kind}`} role={m.kind === 'error' ? 'alert' : 'status'}>
          <span>{m.text}</span>
          <button type="button" aria-label="Dismiss message" onClick={() => dismiss(m.id)}>
            ×
          </button>
        </p>
      ))}
    </section>
  );
}
