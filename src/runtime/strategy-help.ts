/** The help of `tcs strategy new` and `tcs strategy check` (kept apart so the CLI's command table loads no file-writing or replay code). */
export const STRATEGY_NEW_HELP = `Usage: tcs strategy new NAME [--kind KIND] [--dir DIR]

Writes DIR/NAME.ts (a strategy: a factory with declared parameters, its indicators declared with
trackIndicators, the lookback they need, comments on every snapshot field) and DIR/NAME.test.ts (a
vitest test of it that passes as written), from one of three templates:

  breakout        long above the Donchian channel of the bars before, short below it
  mean-reversion  Wilder's RSI: long when oversold, short when overbought, out at the exit level
  crossover       long while the fast EMA is above the slow one, short while below

Without --kind, a word of the NAME picks one (rsi, revert, mean, bollinger: mean-reversion; cross,
ma, sma, ema, macd: crossover), else it is the breakout; the command says which it used. Replace
the rule with yours. NAME is lower case: letters, digits and underscores, starting with a letter
(it becomes the agent's name and Signal.agent). Where no package.json above DIR says "type":
"module", it also writes DIR/package.json saying so (else Node loads NAME.ts as CommonJS and the
loader cannot see its export). Existing files are not overwritten. Then:

  npx vitest run DIR/NAME.test.ts        # its test (strategies/ is in the test run;
                                         # a DIR outside the package: npx vitest run --root DIR)
  STRATEGIES=./DIR/NAME.ts npm start     # trade with it (paper)
  tcs simulate --strategies ./DIR/NAME.ts --cycles 5000
  tcs strategy check ./DIR/NAME.ts --cycles 5000

Options:
  --kind KIND  breakout, mean-reversion or crossover (default: guessed from NAME, else breakout).
  --dir DIR    Where to write (default: strategies).
  -h, --help   This help.`;

export const STRATEGY_CHECK_HELP = `Usage: tcs strategy check STRATEGY… --data DIR [--from ISO] [--to ISO] [options]
       tcs strategy check STRATEGY… --cycles N [--seed S] [options]

Looks for bias in a strategy's signals (docs/strategies/checking-a-strategy.md). STRATEGY is a
built-in name or a module path, as in STRATEGIES (several: separated by spaces or commas); its
parameters come from STRATEGY_PARAMS as in a simulation. The market is opened as \`tcs simulate\`
opens it, recorded once, and the strategy replayed over it, a fresh agent every time:

  determinism  the full run twice: answers that differ depend on something other than the bars
               (a clock, randomness, state its module keeps between agents)
  look-ahead   at each sampled bar, a run from the start on the data cut after that bar: an answer
               at or before the cut that differs from the full run's read a later bar
  recursion    at each sampled bar, a fresh agent started there with the window a run gives it, and
               with twice as many bars: an answer that differs from the full run's depends on how
               much history came before (an EMA seeded from the first bar it was handed)
  indicators   the same runs, comparing the values of the indicators the strategy declared with
               trackIndicators, bar by bar: a value that differs depends on how much history it
               was given, even where the signals agree (n/a: it declared none)

Answers are compared on direction, confidence (within --tolerance) and target (relative). Every
strategy gets a table: each check's verdict, the first bar where a bias shows (its open time, UTC),
the symbol, and what the full run and the other run answered there. Position is always 0 and NAV the
starting cash: the check is about what the strategy reads, not what it trades.

Market (as tcs simulate):
  --data DIR          Replay a data directory (docs/strategies/data-format.md).
  --from ISO          First cycle's time (default: the data's first candle).
  --to ISO            Stop before this time.
  --cycles N          Cycles of the synthetic market (required without --data unless --to is given;
                      with --data: at most N).
  --seed S            Seed of the synthetic market (default MARKET_SEED, else 42).
  --symbols LIST      SYMBOLS (a replay: the data's symbols by default).

Check:
  --samples K         Bars sampled as cuts and starts (default 20), from a seeded stream.
  --sample-seed S     Seed of that stream (default 1): the same seed samples the same bars.
  --tolerance X       Largest confidence difference taken as equal (default 1e-4; smoothed
                      indicators restarted at another bar agree to about 1e-6); for an
                      indicator's value, X times the range it spanned in the full run.
  --json              The result as one JSON document on stdout instead of the table.
  -h, --help          This help.

Exit codes: 0 no bias found, 1 bias found, 2 bad arguments, unknown strategy or unusable data.`;
