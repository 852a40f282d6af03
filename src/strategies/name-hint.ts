/**
 * "Did you mean …?" for a name that is not known: a STRATEGIES entry that names no built-in (the
 * built-in written with hyphens, another case or a small typo: momentum-ma-crossover →
 * momentum_ma_crossover), a strategy parameter or a variable in a sweep spec (RISK_FRACTOIN →
 * RISK_FRACTION). Only a suggestion in the error; an alias is never accepted, so the configured name
 * is always the one that appears in weights, the audit trail and the reports.
 */

/**
 * The known name the entry most plausibly meant, or null when none is within `maxDistance` edits
 * (2 by default: a swapped pair of letters counts 2).
 */
export function closestName(entry: string, known: readonly string[], maxDistance = 2): string | null {
  const normalised = normalise(entry);
  const exact = known.find((name) => normalise(name) === normalised);
  if (exact !== undefined) return exact;
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = editDistance(normalised, normalise(name));
    if (distance <= maxDistance && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

/** Lower case, and hyphens, spaces and dots read as the underscores the built-in names use. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[-\s.]+/g, '_');
}

/** Levenshtein distance, one row at a time (names are short). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
