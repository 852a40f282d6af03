/**
 * Numbers parsed straight from the bytes of a CSV field, with no string made per field (a year of
 * minutes is three million fields per symbol). Strict: a field is a decimal such as -12.5, 0.001,
 * 3e-4 or 42, nothing else (no blanks, no hex, no "Infinity"); anything else gives NaN and the
 * reader names the line. A plain decimal of at most 15 digits is computed as an exact integer over
 * an exact power of ten, which IEEE division rounds to the nearest double: the same value Number()
 * gives. Longer digits and exponents take Number() on the text, which is always correct.
 */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function slow(buf: Buffer, s: number, e: number): number {
  const text = buf.toString('latin1', s, e);
  return DECIMAL.test(text) ? Number(text) : NaN;
}

export function parseDecimal(buf: Buffer, s: number, e: number): number {
  let i = s;
  let negative = false;
  if (i < e && (buf[i] === 0x2b || buf[i] === 0x2d)) {
    negative = buf[i] === 0x2d;
    i += 1;
  }
  let mantissa = 0;
  let digits = 0;
  let decimals = 0;
  let dot = false;
  for (; i < e; i++) {
    const c = buf[i]!;
    if (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits += 1;
      if (dot) decimals += 1;
    } else if (c === 0x2e && !dot) dot = true;
    else break;
  }
  if (i < e || digits > 15) return slow(buf, s, e);
  if (digits === 0) return NaN;
  const value = decimals === 0 ? mantissa : mantissa / POW10[decimals]!;
  return negative ? -value : value;
}

/** A whole non-negative number of at most 16 digits (epoch milliseconds), else NaN. */
export function parseInteger(buf: Buffer, s: number, e: number): number {
  if (e === s || e - s > 16) return NaN;
  let n = 0;
  for (let i = s; i < e; i++) {
    const c = buf[i]!;
    if (c < 0x30 || c > 0x39) return NaN;
    n = n * 10 + (c - 0x30);
  }
  return n;
}
