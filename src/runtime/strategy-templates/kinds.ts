/**
 * The kinds of strategy `tcs strategy new` can write, and the guess from a NAME when --kind is not
 * given. The guess is a plain word match the command prints ("guessed from \"rsi\" in the NAME"),
 * so a user who meant something else sees it at once and knows the flag that picks another.
 */
export const STRATEGY_KINDS = ['breakout', 'mean-reversion', 'crossover'] as const;
export type StrategyKind = (typeof STRATEGY_KINDS)[number];

export function isStrategyKind(value: string): value is StrategyKind {
  return (STRATEGY_KINDS as readonly string[]).includes(value);
}

/**
 * Words of a NAME that say which template it wants, checked in this order: a part of the name
 * (between underscores) equal to one, or containing the longer ones (`rsi_revert`, `macross`).
 */
const HINTS: readonly { kind: StrategyKind; word: string; whole: boolean }[] = [
  { kind: 'mean-reversion', word: 'rsi', whole: true },
  { kind: 'mean-reversion', word: 'revert', whole: false },
  { kind: 'mean-reversion', word: 'reversion', whole: false },
  { kind: 'mean-reversion', word: 'mean', whole: false },
  { kind: 'mean-reversion', word: 'bollinger', whole: false },
  { kind: 'crossover', word: 'cross', whole: false },
  { kind: 'crossover', word: 'crossover', whole: false },
  { kind: 'crossover', word: 'ma', whole: true },
  { kind: 'crossover', word: 'sma', whole: true },
  { kind: 'crossover', word: 'ema', whole: true },
  { kind: 'crossover', word: 'macd', whole: true },
  { kind: 'breakout', word: 'breakout', whole: false },
  { kind: 'breakout', word: 'donchian', whole: false },
  { kind: 'breakout', word: 'channel', whole: false },
];

/** The kind a NAME asks for and the word that says so, or null (the default, breakout, applies). */
export function guessKind(name: string): { kind: StrategyKind; word: string } | null {
  const parts = name.split('_');
  for (const { kind, word, whole } of HINTS)
    if (whole ? parts.includes(word) : parts.some((part) => part.includes(word))) return { kind, word };
  return null;
}
