/**
 * Which audit entries an operator is told about, and as what. The notifier follows the audit chain
 * (the one source of truth) and asks this, per entry, for the notifications it carries: pure, so a
 * replay of the same entry always yields the same notifications with the same ids.
 */
/** The fields of an audit entry (src/ports/event-store.ts AuditEvent) a notification is made from. */
export interface AuditEntryFields {
  seq: number;
  at: string;
  kind: string;
  symbol: string | null;
  body: Record<string, unknown>;
  hash: string;
}

export const NOTIFICATION_KINDS = [
  'fill',
  'halt_started',
  'halt_ended',
  'kill',
  'kill_reset',
  'control_changed',
  'risk_state_changed',
  'drift',
  'liquidation',
  'agent_error',
  // Not from an audit entry: the notifier's own observation of its store (./store-fault.ts) and the
  // day's figures read from the trail (./daily-summary.ts).
  'store_fault',
  'store_recovered',
  'daily_summary',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface Notification {
  /** `<entry hash>:<kind>:<index>`: one entry may carry several (a decision with two fills). */
  id: string;
  seq: number;
  at: string;
  kind: NotificationKind;
  symbol: string | null;
  title: string;
  text: string;
  data: Record<string, unknown>;
}

type Draft = Pick<Notification, 'kind' | 'title' | 'text' | 'data'>;

const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

function drafts(entry: AuditEntryFields): Draft[] {
  const b = entry.body;
  switch (entry.kind) {
    case 'control': {
      if (b.outcome !== 'changed') return [];
      const kill = b.event === 'control.kill';
      return [
        {
          kind: kill ? 'kill' : 'control_changed',
          title: kill ? 'Trading killed' : `Control: ${str(b.event)}`,
          text: `${str(b.event)} by ${str(b.actor)}: ${str(b.reason)}`,
          data: { ...b },
        },
      ];
    }
    case 'kill_reset':
      return [
        { kind: 'kill_reset', title: 'Kill reset', text: `reset by ${str(b.actor)}: ${str(b.reason)}`, data: { ...b } },
      ];
    case 'position_drift': {
      const drift = Array.isArray(b.drift) ? (b.drift as Array<Record<string, unknown>>) : [];
      if (drift.length === 0)
        return [
          {
            kind: 'drift',
            title: 'Position drift ended',
            text: 'the exchange agrees with the system again',
            data: { ...b },
          },
        ];
      const held = drift.map((d) => `${str(d.symbol)} holds ${str(d.actual)}, expected ${str(d.expected)}`);
      return [
        {
          kind: 'drift',
          title: `Position drift: ${drift.map((d) => str(d.symbol)).join(', ')}`,
          text: `${held.join('; ')}. No new exposure until the exchange agrees again; closes still go.`,
          data: { ...b },
        },
      ];
    }
    case 'trading_halt_started':
      return [
        {
          kind: 'halt_started',
          title: `Trading halted: ${str(b.reason)}`,
          text: `since ${str(b.since)}: ${str(b.message)}. Nothing new is opened and resting orders are cancelled until the checks pass again.`,
          data: { ...b },
        },
      ];
    case 'trading_halt':
      return [
        {
          kind: 'halt_ended',
          title: `Halt ended: ${str(b.reason)}`,
          text: `halted ${str(b.since)} until ${str(b.until)}: ${str(b.message)}`,
          data: { ...b },
        },
      ];
    case 'risk_state':
      return [
        {
          kind: 'risk_state_changed',
          title: `Risk state ${str(b.from)} -> ${str(b.to)}`,
          text: str(b.reason),
          data: { ...b },
        },
      ];
    case 'position_liquidated':
      return [{ kind: 'liquidation', title: 'Position liquidated', text: str(entry.symbol), data: { ...b } }];
    case 'decision':
      return decisionDrafts(b);
    case 'agent_failing':
      return [
        {
          kind: 'agent_error',
          title: `Strategy ${str(b.agent)} keeps failing`,
          text: `since ${str(b.since)}, ${str(b.errors)} errors; latest on ${str(b.symbol)}: ${str(b.message)}. It gives no signal where it throws.`,
          data: { ...b },
        },
      ];
    case 'agent_recovered':
      return [
        {
          kind: 'agent_error',
          title: `Strategy ${str(b.agent)} runs clean again`,
          text: `failing since ${str(b.since)} (${str(b.errors)} errors) until ${str(b.recovered_at)}`,
          data: { ...b },
        },
      ];
    case 'order_filled':
      return [
        { kind: 'fill', title: FILLED_TITLE[str(b.source)] ?? 'Order filled', text: fillText(b), data: { ...b } },
      ];
    default:
      return [];
  }
}

/** A fill between cycles (src/domain/fill-entry.ts), by how it came about. */
const FILLED_TITLE: Record<string, string> = {
  resting: 'Resting order filled',
  exchange_stop: 'Exchange stop filled',
  cancel: 'Order filled before its cancel',
};

function fillText(b: Record<string, unknown>): string {
  return `${str(b.symbol)} ${str(b.side)} ${str(b.qty)} @ ${str(b.price)} (${str(b.client_order_id)})`;
}

function decisionDrafts(b: Record<string, unknown>): Draft[] {
  const out: Draft[] = [];
  const submissions = Array.isArray(b.submissions) ? (b.submissions as Record<string, unknown>[]) : [];
  for (const s of submissions) {
    if (s?.status === 'submitted' && typeof s.filledQty === 'number' && s.filledQty > 0) {
      out.push({
        kind: 'fill',
        title: 'Order filled',
        text: `${str(s.clientOrderId)} filled ${s.filledQty}`,
        data: { ...s },
      });
    }
  }
  return out;
}

export function selectNotifications(entry: AuditEntryFields): Notification[] {
  return drafts(entry).map((d, i) => ({
    id: `${entry.hash}:${d.kind}:${i}`,
    seq: entry.seq,
    at: entry.at,
    symbol: entry.symbol,
    ...d,
  }));
}
