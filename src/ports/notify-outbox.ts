/**
 * Notification outbox port: the notifier's durable state in the store — how far it has read the audit
 * chain (the cursor) and each delivery (notification × webhook target) with its state. Enqueueing and
 * moving the cursor are one atomic step, so a crash between reading entries and queueing their
 * deliveries neither loses nor doubles one. Every adapter passes test/contracts/notify-outbox.contract.ts.
 */

export interface OutboxDelivery {
  /** Stable per (notification, target): the receiver dedupes on it. */
  id: string;
  target: string;
  notification_id: string;
  kind: string;
  seq: number;
  at: string;
  title: string;
  /** The body to post, as built when queued. */
  body: unknown;
  state: 'pending' | 'delivered';
  attempts: number;
  /** Epoch ms: not tried again before. */
  next_at: number;
  last_error: string | null;
  delivered_at: string | null;
}

export interface NotifyOutbox {
  /** The last audit seq whose notifications are queued (0 before any). */
  cursor(): Promise<number>;
  /**
   * Queues deliveries not already known (by id) and moves the cursor to `throughSeq`, in one step.
   * A cursor that would move back is refused (Error) and nothing changes.
   */
  enqueue(throughSeq: number, deliveries: OutboxDelivery[]): Promise<void>;
  /**
   * Pending deliveries due at `nowMs`, oldest seq first; of one target only when `target` is given
   * (so a target with a long backlog does not fill another's page).
   */
  due(nowMs: number, limit: number, target?: string): Promise<OutboxDelivery[]>;
  /** Records an attempt: delivered, or failed with when to try next. Unknown ids are ignored. */
  settle(
    id: string,
    outcome: { delivered: true; at: string } | { delivered: false; error: string; nextAt: number },
  ): Promise<void>;
  /** Newest first (seq descending), pending and delivered alike. */
  recent(limit: number): Promise<OutboxDelivery[]>;
  /** Pending deliveries. */
  backlog(): Promise<number>;
}
