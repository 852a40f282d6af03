/**
 * The market of a simulation run and the run's time frame. Synthetic: the seeded generator, one
 * step per cycle (simulated time is market time), from --from or a fixed date, for --cycles or until
 * --to. Replay: the data directory's candles between --from and --to, one candle per cycle, so the
 * cycle length is the data's timeframe; the clock reads each candle's close when its cycle runs, so
 * funding settles at the data's own times. The manifest's instruments replace the built-in table's,
 * and its per-symbol fees FEE_MAKER/FEE_TAKER. Takers fill as FILL_MODEL says (next_open by default).
 */
import type { SpreadModel } from '../../domain/market.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.js';
import { createSyntheticFeed } from '../../adapters/market-data/index.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { TradingConfig } from '../trading/trading-config.js';
import type { SimulateOptions } from './simulate-options.js';
import { DEFAULT_HISTORY_BARS } from '../../domain/strategy-input.js';
import { replayHistory, withManifestFees } from '../trading/market-feed.js';
import type { HistoryFor } from '../trading/market-feed.js';
import type { CandleRows, DataDirectory } from '../../adapters/market-data/file/index.js';

/** What the summary says of a replay's warm-up: the history candles, and where the first cycle moved. */
function warmUpNote(warmUp: { bars: number; movedFrom: number | null }, first: number): string {
  const moved =
    warmUp.movedFrom === null
      ? ''
      : `; the first cycle moved from ${new Date(warmUp.movedFrom).toISOString()} to ${new Date(first).toISOString()} for it`;
  return `first cycle after ${warmUp.bars} warm-up candles${moved}`;
}

/** What the summary says of where a replay's market orders filled. */
const FILLS_NOTE = {
  next_open: "market orders fill at the next candle's open (FILL_MODEL=next_open)",
  close: 'market orders fill at the close the strategy saw (FILL_MODEL=close)',
} as const;

/** What the summary says of a replay's spread (SPREAD_MODEL). */
function spreadNote(spread: SpreadModel): string {
  if (spread.model === 'none') return 'no spread (SPREAD_MODEL=none)';
  if (spread.model === 'fixed_bps') return `a spread of ${spread.bps} bps of the close (SPREAD_MODEL=fixed_bps)`;
  return "a spread of 1 % of the candle's range, at least a tick (SPREAD_MODEL=derived)";
}

/** Where a synthetic run starts when --from is not given: a fixed date, so runs are reproducible. */
export const SYNTHETIC_START = Date.UTC(2026, 0, 1);

export interface RunMarket {
  feed: MarketFeed;
  /** The config with the cycle length and instruments the market decided. */
  config: TradingConfig;
  /** The clock when the first cycle runs: one cycle after the run's start (the end of its first period). */
  start: number;
  /** Cycles the run will make (fewer if stopped). */
  cycles: number;
  /** For the report: what the market was. */
  description: string;
}

/** A replay's data directory, checked and indexed (indexReplay), for openRunMarket. */
export interface IndexedReplay {
  dir: string;
  data: DataDirectory<CandleRows>;
}

/**
 * Checks and indexes a replay's data for `config`'s symbols, before any strategy module is imported:
 * the check reads every row, and a module that patched globals at import would see them all go by.
 * After this the replay reads each candle only when its cycle comes (candle-rows.ts).
 */
export async function indexReplay(config: TradingConfig, dir: string): Promise<IndexedReplay> {
  const { indexDataDir, DataFileError } = await import('../../adapters/market-data/file/index.js');
  try {
    return {
      dir,
      data: await indexDataDir(
        dir,
        config.instruments.map((i) => i.symbol),
      ),
    };
  } catch (err) {
    if (err instanceof DataFileError) throw new ConfigError(`--data ${dir}: ${err.message}`);
    throw err;
  }
}

export async function openRunMarket(
  config: TradingConfig,
  options: SimulateOptions,
  dataDir: string | IndexedReplay | null,
  historyFor: HistoryFor = () => ({ bars: DEFAULT_HISTORY_BARS, required: 1 }),
): Promise<RunMarket> {
  if (dataDir === null) {
    // The first cycle ends one cycle after --from, as a replay's first candle closes one timeframe after it opens.
    const from = options.from ?? SYNTHETIC_START;
    const start = from + config.cycleMs;
    const cycles = options.cycles ?? Math.floor(((options.to as number) - from) / config.cycleMs);
    if (cycles < 1) throw new ConfigError('--from and --to leave no whole cycle to run');
    const feed = createSyntheticFeed({
      instruments: config.instruments,
      seed: config.marketSeed,
      stepMs: config.cycleMs,
      correlation: config.synthetic.correlation,
      trend: config.synthetic.trend,
      fundingHalfLifeHours: config.synthetic.fundingHalfLifeHours,
      historyLength: historyFor(config.cycleMs).bars,
      // The first cycle's bar opens at --from, so candle times read as the run's dates.
      epoch: from,
    });
    const { correlation, trend, fundingHalfLifeHours } = config.synthetic;
    const description =
      `synthetic, seed ${config.marketSeed}, correlation ${correlation}, trend ${trend}, funding half-life ${fundingHalfLifeHours} h` +
      `, ${historyFor(config.cycleMs).bars} bars of generated history before the first cycle`;
    return { feed, config, start, cycles, description };
  }
  return typeof dataDir === 'string'
    ? openReplay(config, options, dataDir, historyFor)
    : openReplay(config, options, dataDir.dir, historyFor, dataDir.data);
}

/**
 * The SYMBOLS of a replay when neither --symbols nor SYMBOLS says: every symbol the directory has
 * candles for, of the manifest's kind, else a perpetual (the default kind of SYMBOLS; never guessed
 * spot from missing funding rates: a perpetual without them is refused, docs/strategies/data-format.md). A
 * replay of a directory downloaded for two symbols then runs on those two, not on the default three.
 */
export async function dataSymbols(dir: string): Promise<string | null> {
  const { readManifestInstruments } = await import('../../adapters/market-data/file/index.js');
  const names = (folder: string): string[] => {
    try {
      return readdirSync(join(dir, folder))
        .filter((f) => !f.startsWith('.'))
        .map((f) => f.replace(/\.(csv|parquet)$/, ''));
    } catch {
      return [];
    }
  };
  const declared = new Map((await readManifestInstruments(dir).catch(() => [])).map((i) => [i.symbol, i.kind]));
  const symbols = [...new Set(names('candles'))].sort();
  if (symbols.length === 0) return null; // the replay itself says what is missing
  return symbols.map((symbol) => `${symbol}:${declared.get(symbol) ?? 'perp'}`).join(',');
}

async function openReplay(
  config: TradingConfig,
  options: SimulateOptions,
  dir: string,
  historyFor: HistoryFor,
  data?: DataDirectory<CandleRows>,
): Promise<RunMarket> {
  const { applyManifestInstruments, createFileFeed, DataFileError, readManifest } =
    await import('../../adapters/market-data/file/index.js');
  try {
    const manifest = await readManifest(dir);
    const instruments = applyManifestInstruments(config.instruments, manifest?.instruments ?? []);
    const feed = await createFileFeed({
      dir,
      ...(data === undefined ? {} : { data }),
      instruments,
      fillModel: config.fills.model,
      book: { spread: config.fills.spread },
      ...(options.from !== null ? { from: options.from } : {}),
      ...(options.to !== null ? { to: options.to } : {}),
      ...replayHistory(historyFor),
    });
    const { stepMs, timeframe, first } = feed.range;
    if (options.cycleSeconds !== null && Number(options.cycleSeconds) * 1000 !== stepMs)
      throw new ConfigError(
        `--cycle-seconds ${options.cycleSeconds} does not match the data's ${timeframe} candles: a replay runs one cycle per candle`,
      );
    const cycles = Math.min(options.cycles ?? Number.POSITIVE_INFINITY, feed.remaining);
    if (cycles < 1) throw new ConfigError(`--data ${dir}: no candle between --from and --to`);
    return {
      feed,
      config: withManifestFees({ ...config, instruments, cycleMs: stepMs }, manifest?.fees),
      start: first + stepMs,
      cycles,
      description: `replay of ${dir} (${timeframe}), ${warmUpNote(feed.warmUp, first)}; ${FILLS_NOTE[config.fills.model]}, ${spreadNote(config.fills.spread)}`,
    };
  } catch (err) {
    if (err instanceof DataFileError) throw new ConfigError(`--data ${dir}: ${err.message}`);
    throw err;
  }
}
