/**
 * How the console writes numbers and times. Times are shown in UTC with the zone named, because
 * operators of one desk sit in several zones and the audit trail is in UTC. A missing value is an
 * em dash, never 0: "no figure yet" must not read as "flat". Pure, tested without a browser.
 */

export const NONE = '—';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Quote-currency amount with thousands separators and 2 decimals: 10,234.50. */
export function money(v: number | null | undefined): string {
  if (!isNum(v)) return NONE;
  return v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A signed amount with an explicit + for gains: +12.30 / −4.00. */
export function signedMoney(v: number | null | undefined): string {
  if (!isNum(v)) return NONE;
  const text = money(Math.abs(v));
  if (v > 0) return `+${text}`;
  if (v < 0) return `−${text}`;
  return text;
}

/** A fraction as a percentage with `digits` decimals: 0.0123 → 1.23 %. */
export function pct(v: number | null | undefined, digits = 2): string {
  if (!isNum(v)) return NONE;
  return `${(v * 100).toFixed(digits)} %`;
}

/** A ratio such as leverage: 1.234 → 1.23×. */
export function ratio(v: number | null | undefined): string {
  if (!isNum(v)) return NONE;
  return `${v.toFixed(2)}×`;
}

/** A quantity: up to 8 decimals, trailing zeros dropped (0.00100000 → 0.001). */
export function qty(v: number | null | undefined): string {
  if (!isNum(v)) return NONE;
  if (v === 0) return '0';
  return v.toFixed(8).replace(/\.?0+$/, '');
}

/** A plain number with up to `digits` decimals (guard values and limits of any scale). */
export function num(v: number | null | undefined, digits = 4): string {
  if (!isNum(v)) return NONE;
  return Number(v.toFixed(digits)).toString();
}

/** ISO 8601 → "2026-01-05 12:00:00 UTC". */
export function utc(iso: string | null | undefined): string {
  if (!iso) return NONE;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return NONE;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A `datetime-local` input's value (no zone; the console labels those inputs UTC) → ISO 8601 for
 * the API's since/until, or undefined when empty or unreadable.
 */
export function utcInputToIso(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  const d = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
