/**
 * Test helpers that read numbers the way a reader of an event line does: by their printed form.
 * They work on `String(x)` (what JSON.stringify prints too), including exponent forms like 3e-8.
 */

/** Fractional digits of `String(x)` as a reader sees them: 59763.7 → 1, 3e-8 → 8, 1.5e-7 → 8, 1200 → 0. */
export function printedDecimals(x: number): number {
  const [mantissa = '', exponent = '0'] = String(x).split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

/** `String(x)` as an exact integer count of 10^-decimals, or null when it needs more decimals. */
export function printedUnits(x: number, decimals: number): bigint | null {
  if (printedDecimals(x) > decimals) return null;
  const [mantissa = '', exponent = '0'] = String(x).split('e');
  const negative = mantissa.startsWith('-');
  const [whole = '', fraction = ''] = mantissa.replace('-', '').split('.');
  const shift = decimals + Number(exponent) - fraction.length;
  const digits = BigInt(whole + fraction);
  const units = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return negative ? -units : units;
}

/** The exact decimal `units × 10^-decimals` as a string, e.g. (5976377n, 2) → "59763.77". */
export function decimalString(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
