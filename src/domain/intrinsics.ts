/**
 * Built-in constructors as they were before any strategy module ran. A strategy module may replace
 * globals at import (`globalThis.Float64Array = class extends Float64Array { … }`); code that looks
 * the global up later then hands the module every array it makes, and a replay's columns hold the
 * future. The registry imports this module before it imports any user module, so these bindings are
 * the genuine ones in every process; the replay allocates its arrays through them. A module that
 * patches prototypes sees what later passes through them: a CSV replay holds no future candle to
 * pass (it reads each one when its cycle comes); reading the data files with `fs` is not stopped
 * (docs/strategies/writing-a-strategy.md#what-a-strategy-can-reach).
 */
export const Float64ArrayIntrinsic: Float64ArrayConstructor = Float64Array;
