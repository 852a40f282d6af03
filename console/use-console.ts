/**
 * The console's live state in one hook: the control record, heartbeat, health, account, machines,
 * audit check and NAV history, kept current from the event stream. Reads are triggered by stream
 * events (a control change, a cycle's heartbeat, a fill, a command result), coalesced, never polled
 * in a tight loop. A 401 anywhere signs the operator out with "That key was refused".
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Api } from './lib/api.js';
import { ApiError, REFUSED_KEY } from './lib/api-errors.js';
import { mergePoints, navPoint } from './lib/chart-points.js';
import { NO_CANDLES, mergeCandles } from './lib/candles.js';
import type { CandleBook } from './lib/candles.js';
import { fillOfEvent, mergeFills } from './lib/fills.js';
import type { FillRow } from './lib/fills.js';
import type { NavPoint } from './lib/chart-points.js';
import { applyMachinesEvent } from './lib/machines.js';
import type { MachinesDocument, MachinesEvent } from './lib/machines.js';
import type { SseEvent } from './lib/sse.js';
import { runStream } from './lib/stream.js';
import type { StreamStatus } from './lib/stream.js';
import { coalesce } from './lib/throttle.js';
import type {
  Account,
  AuditVerification,
  ControlStatus,
  DecisionEntry,
  Health,
  Heartbeat,
  NotificationRow,
} from './lib/types.js';

export interface Message {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface ConsoleState {
  api: Api;
  status: ControlStatus | null;
  heartbeat: Heartbeat | null;
  health: Health | null;
  account: Account | null;
  /** 'unavailable' when the API has no machine view (404). */
  machines: MachinesDocument | 'unavailable' | null;
  audit: AuditVerification | null;
  nav: NavPoint[];
  /** The fills read since sign-in, newest first (console/lib/fills.ts): the fills list and the closed trades. */
  fills: FillRow[];
  /** Each symbol's candles from the decision log (console/lib/candles.ts). */
  candles: CandleBook;
  /** GET /reports/notifications: what the notifier sends, newest first. */
  notifications: NotificationRow[];
  stream: StreamStatus;
  /** Grows with every decision event, so the decisions panel knows to reload its first page. */
  decisionsTick: number;
  messages: Message[];
  say(kind: Message['kind'], text: string): void;
  dismiss(id: number): void;
  /** Shows an API failure (or signs out on 401). */
  fail(err: unknown): void;
  setStatus(status: ControlStatus): void;
  refreshAccount(): void;
  verifyAudit(): Promise<void>;
}

let nextMessageId = 1;
const INFO_MESSAGE_MS = 20_000;
/**
 * Fills kept: the closed trades are matched from them, so more than the fills list shows; a page of
 * 1,000 decisions holds at most a few thousand.
 */
const FILL_HISTORY = 5_000;

export function useConsole(key: string, signOut: (why?: string) => void): ConsoleState {
  const api = useMemo(() => new Api(key), [key]);
  const [status, setStatusRaw] = useState<ControlStatus | null>(null);
  const [heartbeat, setHeartbeat] = useState<Heartbeat | null>(null);
  const [health, setHealth] = useState<Health | null>(null);
  const [account, setAccount] = useState<Account | null>(null);
  const [machines, setMachines] = useState<MachinesDocument | 'unavailable' | null>(null);
  const [audit, setAudit] = useState<AuditVerification | null>(null);
  const [nav, setNav] = useState<NavPoint[]>([]);
  const [fills, setFills] = useState<FillRow[]>([]);
  const [candles, setCandles] = useState<CandleBook>(NO_CANDLES);
  const [notifications, setNotifications] = useState<NotificationRow[]>([]);
  const [stream, setStream] = useState<StreamStatus>('connecting');
  const [decisionsTick, setDecisionsTick] = useState(0);
  const [messages, setMessages] = useState<Message[]>([]);
  const lastCycle = useRef<number | null>(null);

  const dismiss = useCallback((id: number) => setMessages((list) => list.filter((m) => m.id !== id)), []);
  // Errors stay until dismissed; confirmations fade after a while so the area does not fill up.
  const say = useCallback(
    (kind: Message['kind'], text: string) => {
      const id = nextMessageId++;
      setMessages((list) => [...list.slice(-3), { id, kind, text }]);
      if (kind === 'info') setTimeout(() => dismiss(id), INFO_MESSAGE_MS);
    },
    [dismiss],
  );
  const fail = useCallback(
    (err: unknown) => {
      if (err instanceof ApiError && err.unauthorized) return signOut(REFUSED_KEY);
      if (err instanceof ApiError) return say('error', `${err.message} (${err.code})`);
      say('error', err instanceof Error ? err.message : String(err));
    },
    [say, signOut],
  );

  // A replayed or late control event must never move the banner back to an older epoch.
  const setStatus = useCallback((next: ControlStatus) => {
    setStatusRaw((current) => (current && current.epoch > next.epoch ? current : next));
  }, []);

  const refreshAccount = useMemo(
    () =>
      coalesce(async () => {
        try {
          const next = await api.get<Account>('/control/portfolio');
          setAccount(next);
          if (next.published_at && next.nav !== null && next.peak_nav !== null) {
            const point = navPoint(next.published_at, next.nav, next.peak_nav);
            setNav((series) => mergePoints(series, [point]));
          }
        } catch (err) {
          fail(err);
        }
      }, 500),
    [api, fail],
  );

  // A new decision reloads the first page of decisions; at short cycle intervals at most once a second.
  const refreshDecisions = useMemo(
    () =>
      coalesce(async () => {
        setDecisionsTick((n) => n + 1);
      }, 1_000),
    [],
  );

  // New decisions carry the bars their feeds just closed: the newest few are read for the candle
  // chart, at most every 2 s whatever the cycle length (the fills come with the stream's `fill`).
  const refreshCandles = useMemo(
    () =>
      coalesce(async () => {
        try {
          const entries = await api.get<DecisionEntry[]>('/reports/decisions', { limit: 50 });
          setCandles((book) => mergeCandles(book, entries));
        } catch (err) {
          fail(err);
        }
      }, 2_000),
    [api, fail],
  );

  // The notifications of the newest entries, read at sign-in and when an entry may have added one
  // (a decision, a control change, a command), at most every 2 s.
  const refreshNotifications = useMemo(
    () =>
      coalesce(async () => {
        try {
          setNotifications(await api.get<NotificationRow[]>('/reports/notifications', { limit: 200 }));
        } catch (err) {
          fail(err);
        }
      }, 2_000),
    [api, fail],
  );

  // The stream sends health only when a status changes; the figures in it (heartbeat age, entries)
  // are refreshed with each new cycle, at most every few seconds.
  const refreshHealth = useMemo(
    () =>
      coalesce(async () => {
        try {
          // Public: the key is not sent where it is not needed.
          const res = await fetch('/health', { cache: 'no-store' });
          setHealth((await res.json()) as Health);
        } catch {
          // The stream's health events and the next cycle try again; /health itself is what failed.
        }
      }, 3_000),
    [api],
  );

  const verifyAudit = useCallback(async () => {
    try {
      setAudit(await api.get<AuditVerification>('/reports/audit-chain'));
    } catch (err) {
      fail(err);
    }
  }, [api, fail]);

  const loadMachines = useCallback(async () => {
    try {
      setMachines(await api.get<MachinesDocument>('/control/machines'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setMachines('unavailable');
      else fail(err);
    }
  }, [api, fail]);

  const loadNavHistory = useCallback(async () => {
    try {
      const [entries, fills] = await Promise.all([
        api.get<DecisionEntry[]>('/reports/decisions', { limit: 1000 }),
        api.get<Array<Record<string, unknown>>>('/reports/fills', { limit: 1000 }),
      ]);
      const points = entries.map((e) =>
        e.decision.account ? navPoint(e.at, e.decision.account.nav, e.decision.account.peak_nav) : null,
      );
      setNav((series) => mergePoints(series, points));
      // Every recorded fill: at submission (decisions) and between cycles (resting orders, stops).
      setFills((list) => mergeFills(list, fills.map(fillOfEvent), FILL_HISTORY));
      setCandles((book) => mergeCandles(book, entries));
    } catch (err) {
      fail(err);
    }
  }, [api, fail]);

  // Active states from the stream (snapshot or `machines` event) onto the trees GET /control/machines gave.
  const applyMachines = useCallback((event: MachinesEvent) => {
    setMachines((doc) => (doc && doc !== 'unavailable' ? applyMachinesEvent(doc, event) : doc));
  }, []);

  const onEvent = useCallback(
    (event: SseEvent) => {
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(event.data) as Record<string, unknown>;
      } catch {
        return;
      }
      switch (event.event) {
        case 'snapshot': {
          const snap = data as {
            control: ControlStatus;
            heartbeat: Heartbeat | null;
            health: Health | null;
            machines?: MachinesEvent | null;
          };
          setStatus(snap.control);
          if (snap.heartbeat) setHeartbeat(snap.heartbeat);
          if (snap.health) setHealth(snap.health);
          if (snap.machines?.active) applyMachines(snap.machines);
          refreshAccount();
          return;
        }
        case 'control':
          setStatus(data as unknown as ControlStatus);
          refreshAccount();
          refreshNotifications();
          // The chain is re-checked on sign-in and on "Verify now" only: a check re-reads the whole
          // trail, and every open console reacting to every change would multiply that cost.
          return;
        case 'heartbeat': {
          const beat = data as unknown as Heartbeat;
          setHeartbeat(beat);
          if (beat.cycle !== lastCycle.current) {
            lastCycle.current = beat.cycle;
            refreshAccount();
            refreshHealth();
          }
          return;
        }
        case 'health':
          setHealth(data as unknown as Health);
          return;
        case 'decision':
          refreshDecisions();
          refreshCandles();
          refreshNotifications();
          return;
        case 'fill':
          setFills((list) => mergeFills(list, [fillOfEvent(data)], FILL_HISTORY));
          refreshAccount();
          return;
        case 'command':
          say('info', `command ${String(data.type)} ${String(data.status ?? '')}: ${String(data.command_id)}`);
          refreshAccount();
          refreshNotifications();
          return;
        case 'machines':
          applyMachines(data as unknown as MachinesEvent);
          return;
        default:
          return;
      }
    },
    [
      applyMachines,
      refreshAccount,
      refreshCandles,
      refreshDecisions,
      refreshHealth,
      refreshNotifications,
      say,
      setStatus,
    ],
  );

  useEffect(() => {
    const abort = new AbortController();
    void runStream({
      key,
      signal: abort.signal,
      onEvent,
      onStatus: (s) => {
        setStream(s);
        if (s === 'refused') signOut(REFUSED_KEY);
      },
    });
    void loadMachines();
    void loadNavHistory();
    refreshNotifications();
    void verifyAudit();
    return () => abort.abort();
  }, [key, onEvent, loadMachines, loadNavHistory, refreshNotifications, verifyAudit, signOut]);

  return {
    api,
    status,
    heartbeat,
    health,
    account,
    machines,
    audit,
    nav,
    fills,
    candles,
    notifications,
    stream,
    decisionsTick,
    messages,
    say,
    dismiss,
    fail,
    setStatus,
    refreshAccount,
    verifyAudit,
  };
}
