/** `tcs venue check --help`, apart from the command so `tcs --help` loads nothing of ccxt. */
export const VENUE_CHECK_HELP = `Usage: tcs venue check

Connects to the exchange named by EXCHANGE (testnet unless EXCHANGE_TESTNET=false and
LIVE_MAINNET=confirm; EXCHANGE_URL overrides its address) with EXCHANGE_API_KEY and
EXCHANGE_API_SECRET, and prints the account's balance, the positions and the open orders of the
SYMBOLS markets, and their fees and funding of the last 7 days from the income history (which the
live account's fees and funding are read from; a key that cannot read it is said, exit still 0),
and the account settings a live start checks: position mode (one-way required), asset mode
(single-asset required), each symbol's leverage and margin type against EXCHANGE_LEVERAGE and
EXCHANGE_MARGIN_TYPE (what a start would set), and the clock's skew from the exchange's (5 s at most).
Sends only reads: nothing is placed, cancelled or changed. Run it before the first
EXECUTION_MODE=live start, and after rotating keys.

Exit codes: 0 the exchange answered; 1 it did not (unreachable, keys refused); 2 configuration error,
or an account a live start would refuse (what to change on the exchange is named).

Options:
  -h, --help   This help.`;
