"""The backtrader side of bench/backtrader-compare.bench.ts (issue 34, item 8).

The same rule as bench/backtrader/sma-cross.ts: long/flat SMA(10/30) crossover on the closes, a
fixed size of 1 per symbol, market orders placed at a bar's close and filled at the next bar's open
(cheat-on-open off, backtrader's default), commission 0.0004 of notional, no slippage. Long while
SMA(10) > SMA(30), flat otherwise, per symbol. Prints one JSON line: bars, fills, final value.

Usage: python3 sma_cross.py <backtrader source dir> <dir of SYMBOL.csv files> [fills.csv]
backtrader is imported from its source tree (never installed, never committed).
"""
import json
import os
import sys

sys.path.insert(0, sys.argv[1])
import backtrader as bt  # noqa: E402

SYMBOLS = ["BTCUSDT", "ETHUSDT", "SOLUSDT"]
QTY = 1
# Optional third argument: a file to write every fill to (time of the bar it filled on, symbol,
# side, price), to compare fill by fill with tcs's trades.csv. Off in the timed runs.
FILLS_OUT = sys.argv[3] if len(sys.argv) > 3 else None


class SmaCross(bt.Strategy):
    def __init__(self):
        self.fills = 0
        self.rows = []
        self.fast = [bt.indicators.SMA(d.close, period=10) for d in self.datas]
        self.slow = [bt.indicators.SMA(d.close, period=30) for d in self.datas]

    def notify_order(self, order):
        if order.status == order.Completed:
            self.fills += 1
            if FILLS_OUT:
                when = bt.num2date(order.executed.dt).strftime("%Y-%m-%dT%H:%M:%S")
                self.rows.append("%s,%s,%s,%r" % (when, order.data._name, "BUY" if order.isbuy() else "SELL",
                                                  order.executed.price))

    def next(self):
        for i, d in enumerate(self.datas):
            long = self.fast[i][0] > self.slow[i][0]
            held = self.getposition(d).size
            if long and held == 0:
                self.buy(data=d, size=QTY)
            elif not long and held > 0:
                self.close(data=d)


def main():
    cerebro = bt.Cerebro(stdstats=False)  # no observers: the figures come from the strategy
    for symbol in SYMBOLS:
        data = bt.feeds.GenericCSVData(
            dataname=os.path.join(sys.argv[2], symbol + ".csv"),
            dtformat="%Y-%m-%d %H:%M:%S",
            timeframe=bt.TimeFrame.Minutes,
            compression=1,
            datetime=0, open=1, high=2, low=3, close=4, volume=5, openinterest=-1,
        )
        cerebro.adddata(data, name=symbol)
    cerebro.addstrategy(SmaCross)
    cerebro.broker.setcash(100000.0)
    cerebro.broker.setcommission(commission=0.0004)
    strat = cerebro.run()[0]
    if FILLS_OUT:
        with open(FILLS_OUT, "w") as out:
            out.write("\n".join(strat.rows) + "\n")
    print(json.dumps({"bars": len(strat.datas[0]) * len(strat.datas), "fills": strat.fills,
                      "value": cerebro.broker.getvalue()}))


if __name__ == "__main__":
    main()
