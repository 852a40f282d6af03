/**
 * The account the trading process publishes (PORTFOLIO_KEY): read by the console's portfolio route
 * and by deleverage planning. The domain keeps its own AccountSnapshot (with its comments); the
 * schema is proven to be the same type at compile time, so a field added to one alone fails to build.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { AccountSnapshot } from '../portfolio.js';
import type { Same } from './same.js';

const Finite = Type.Number();
const Side = Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]);

const PositionSchema = Type.Object({
  symbol: Type.String(),
  kind: Type.Union([Type.Literal('perp'), Type.Literal('spot')]),
  qty: Finite,
  entryPrice: Finite,
  markPrice: Finite,
  unrealizedPnl: Finite,
  realizedPnl: Finite,
});

const VenueOrderSchema = Type.Object({
  clientOrderId: Type.String(),
  symbol: Type.String(),
  side: Side,
  qty: Finite,
  type: Type.Union([Type.Literal('market'), Type.Literal('limit')]),
  limitPrice: Type.Union([Finite, Type.Null()]),
  reduceOnly: Type.Boolean(),
  timeInForce: Type.Optional(Type.Union([Type.Literal('GTC'), Type.Literal('GTT')])),
  goodTill: Type.Optional(Finite),
  postOnly: Type.Optional(Type.Boolean()),
  status: Type.Union([
    Type.Literal('open'),
    Type.Literal('filled'),
    Type.Literal('cancelled'),
    Type.Literal('rejected'),
  ]),
  filledQty: Finite,
  avgFillPrice: Type.Union([Finite, Type.Null()]),
  createdAt: Finite,
  updatedAt: Finite,
  rejectReason: Type.Optional(Type.String()),
});

export const PortfolioSchema = Type.Object({
  nav: Finite,
  peakNav: Finite,
  cash: Finite,
  realizedPnl: Finite,
  unrealizedPnl: Finite,
  fundingPnl: Finite,
  fundingBySymbol: Type.Optional(Type.Record(Type.String(), Finite)),
  feesPaid: Finite,
  startingCash: Type.Optional(Finite),
  insuranceCover: Type.Optional(Finite),
  positions: Type.Array(PositionSchema),
  openOrders: Type.Array(VenueOrderSchema),
  ts: Type.Number({ minimum: 0 }),
});

const _portfolioAgrees: Same<Static<typeof PortfolioSchema>, AccountSnapshot> = true;
