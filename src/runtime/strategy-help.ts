/** The help of `tcs strategy new` (kept apart so the CLI's command table loads no file-writing code). */
export const STRATEGY_NEW_HELP = `Usage: tcs strategy new NAME [--dir DIR]

Writes DIR/NAME.ts (a strategy: a factory with declared parameters, a declared lookback, comments
on every snapshot field) and DIR/NAME.test.ts (a vitest test of it), both from the one template
there is, a breakout, whatever the NAME: replace its rule with yours. NAME is lower case: letters,
digits and underscores, starting with a letter (it becomes the agent's name and Signal.agent).
Where no package.json above DIR says "type": "module", it also writes DIR/package.json saying so
(else Node loads NAME.ts as CommonJS and the loader cannot see its export). Existing files are not
overwritten. Then:

  npx vitest run DIR/NAME.test.ts        # its test (strategies/ is in the test run;
                                         # a DIR outside the package: npx vitest run --root DIR)
  STRATEGIES=./DIR/NAME.ts npm start     # trade with it (paper)
  tcs simulate --strategies ./DIR/NAME.ts --cycles 5000

Options:
  --dir DIR    Where to write (default: strategies).
  -h, --help   This help.`;
