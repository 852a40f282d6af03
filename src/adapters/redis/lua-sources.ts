/**
 * The Lua scripts of the Redis adapter. They only compare and write: every decision (the control
 * statechart, the sha256 hash chain) is made in TypeScript beforehand, and a script refuses to write
 * when the state it was based on has moved, so the caller re-reads and retries. Each runs atomically
 * on the server, which is what makes a control change and its audit entry one step.
 */
import { AUDIT_CLOCK_SKEW_MS } from '../../domain/clock-skew.js';
import { KILL_CANCELS } from '../../domain/commands.js';
import { GENESIS_HASH } from '../../domain/hash-chain.js';
import { LuaScript } from './lua-script.js';

/**
 * Shared by the scripts that extend the audit chain. Arguments from `first`:
 * expected head seq, expected head hash, seq, at, kind, has_symbol ('1'/'0'), symbol, body,
 * prev_hash, hash, the writer's wall clock (epoch ms). Keys from `firstKey`: head, entry, then the
 * index sorted sets.
 *
 * These two functions are the only writers of entries and of the head (seed only reads the head),
 * and the head {seq, hash, at} is moved in the same script as the entry it points at, so verify()
 * can hold the trail's tail against it. The compare is on seq and hash only: the hash covers the
 * entry's `at`, so a matching hash also proves that the `at` the caller raised its own to (see
 * audit-chain.ts) is still the last entry's. The head's `at` is kept only so that the next writer
 * reads it with the head, in the same round trip.
 *
 * The store's one clock is this server's `TIME`: a writer whose clock is further from it than
 * AUDIT_CLOCK_SKEW_MS is refused before anything is written ({-2, server ms, writer ms}), so no
 * entry is stamped by a skewed clock (domain/clock-skew.ts).
 */
const CHAIN_FUNCTIONS = `
local function head_mismatch(head_key, entry_key, expected_seq, expected_hash, writer_ms)
  local time = redis.call('TIME')
  local server_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  if math.abs(tonumber(writer_ms) - server_ms) > ${AUDIT_CLOCK_SKEW_MS} then
    return {-2, tostring(server_ms), writer_ms}
  end
  local head = redis.call('HMGET', head_key, 'seq', 'hash', 'at')
  local seq = head[1] or '0'
  local hash = head[2] or '${GENESIS_HASH}'
  if seq ~= expected_seq or hash ~= expected_hash then
    return {0, seq, hash, head[3] or ''}
  end
  -- An entry already under the next seq means the head was moved back behind our back: refuse
  -- rather than overwrite the evidence. Checked before the script writes anything.
  if redis.call('EXISTS', entry_key) == 1 then
    return redis.error_reply('audit chain: an entry already exists beyond the head at seq ' .. seq ..
      ' (the store was tampered with; run tcs audit verify)')
  end
  return false
end

local function append_entry(first_key, first)
  local head_key = KEYS[first_key]
  local entry_key = KEYS[first_key + 1]
  local seq = ARGV[first + 2]
  redis.call('HSET', entry_key, 'seq', seq, 'at', ARGV[first + 3], 'kind', ARGV[first + 4],
    'body', ARGV[first + 7], 'prev_hash', ARGV[first + 8], 'hash', ARGV[first + 9])
  if ARGV[first + 5] == '1' then
    redis.call('HSET', entry_key, 'symbol', ARGV[first + 6])
  end
  for i = first_key + 2, #KEYS do
    redis.call('ZADD', KEYS[i], seq, seq)
  end
  redis.call('HSET', head_key, 'seq', seq, 'hash', ARGV[first + 9], 'at', ARGV[first + 3])
end
`;

/**
 * KEYS: head, entry, indexes…  ARGV: the chain arguments.
 * Returns {1} when appended, {0, head_seq, head_hash, head_at} when the head moved, {-2, …} for a
 * writer's clock too far from the server's.
 */
export const appendEventScript = new LuaScript(
  'append_event',
  `${CHAIN_FUNCTIONS}
local moved = head_mismatch(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[11])
if moved then return moved end
append_entry(1, 1)
return {1}
`,
);

/**
 * KEYS: control, head, entry, indexes…
 * ARGV: expected epoch, changed ('1'/'0'), state, epoch, has_reason ('1'/'0'), reason, changed_at,
 *       channel, record JSON, then the chain arguments, then the record's MAC ('' for none), then
 *       (last) the expected store identity.
 * Checks the epoch and the chain head, writes the record (when changed) and the audit entry, and
 * publishes the record (when changed). Returns {1}, {-1} when the epoch moved, or {0, …} as above.
 */
export const controlWriteScript = new LuaScript(
  'control_write',
  `${CHAIN_FUNCTIONS}
local epoch = redis.call('HGET', KEYS[1], 'epoch') or '0'
if epoch ~= ARGV[1] then return {-1, epoch} end
-- The expected store identity is the last argument: a store that was emptied or replaced since the
-- decision (even one at the same epoch) is never written to.
if redis.call('HGET', KEYS[1], 'store_id') ~= ARGV[#ARGV] then return {-1, epoch} end
local moved = head_mismatch(KEYS[2], KEYS[3], ARGV[10], ARGV[11], ARGV[20])
if moved then return moved end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'state', ARGV[3], 'epoch', ARGV[4], 'changed_at', ARGV[7])
  if ARGV[#ARGV - 1] ~= '' then
    redis.call('HSET', KEYS[1], 'mac', ARGV[#ARGV - 1])
  else
    redis.call('HDEL', KEYS[1], 'mac')
  end
  if ARGV[5] == '1' then
    redis.call('HSET', KEYS[1], 'reason', ARGV[6])
  else
    redis.call('HDEL', KEYS[1], 'reason')
  end
end
append_entry(2, 10)
if ARGV[2] == '1' then
  redis.call('PUBLISH', ARGV[8], ARGV[9])
end
return {1}
`,
);

/**
 * Subtracted from the kill's cancels' order: far beyond any count of commands, and with at most 14
 * significant digits, which is what Redis keeps of a Lua number it turns into a string ("%.14g").
 */
const PRIORITY_SHIFT = 1e12;

/**
 * KEYS: record, pending, order counter, leased.  ARGV: id, type, payload JSON, enqueued_at, channel,
 * max open ('' for no bound).
 * Returns {duplicate (0/1), record fields as a flat array}, or {2} when the bound refused it (nothing
 * stored): open commands (pending + leased) at the bound, unless it is the kill's cancels.
 */
export const enqueueCommandScript = new LuaScript(
  'enqueue_command',
  `
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {1, redis.call('HGETALL', KEYS[1])}
end
if ARGV[6] ~= '' and ARGV[2] ~= '${KILL_CANCELS}' then
  if redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[6]) then return {2} end
end
local order = redis.call('INCR', KEYS[3])
-- The kill's cancels sort before every other command (claimed first, however many wait), then in
-- enqueue order among themselves: their order is moved below any the counter can reach.
if ARGV[2] == '${KILL_CANCELS}' then order = order - ${PRIORITY_SHIFT} end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'type', ARGV[2], 'payload', ARGV[3], 'enqueued_at', ARGV[4],
  'status', 'pending', 'attempts', 0, 'order', order)
redis.call('ZADD', KEYS[2], order, ARGV[1])
redis.call('PUBLISH', ARGV[5], ARGV[1])
return {0, redis.call('HGETALL', KEYS[1])}
`,
);

/**
 * KEYS: pending, leased.  ARGV: record key prefix, now (ms), lease ms, max, consumer.
 * Hands out pending commands and those whose lease expired at or before \`now\` (the caller's clock,
 * never the server's), by their order: the kill's cancels first, then oldest enqueued first. Returns the claimed records as flat arrays.
 * The record keys are derived from ids inside the script: fine on a single Redis, not on a cluster.
 */
export const claimCommandsScript = new LuaScript(
  'claim_commands',
  `
local now = tonumber(ARGV[2])
local lease_until = now + tonumber(ARGV[3])
local max = tonumber(ARGV[4])
local candidates = {}
local pending = redis.call('ZRANGE', KEYS[1], 0, max - 1, 'WITHSCORES')
for i = 1, #pending, 2 do
  table.insert(candidates, {pending[i], tonumber(pending[i + 1])})
end
-- All expired leases, not just \`max\` of them: the oldest enqueued must win, and the leased set only
-- holds commands in flight, which stays small.
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, id in ipairs(expired) do
  local order = redis.call('HGET', ARGV[1] .. id, 'order')
  if order then table.insert(candidates, {id, tonumber(order)}) end
end
table.sort(candidates, function(a, b) return a[2] < b[2] end)
local claimed = {}
for i = 1, math.min(max, #candidates) do
  local id = candidates[i][1]
  local key = ARGV[1] .. id
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HSET', key, 'status', 'claimed', 'lease_until', lease_until, 'consumer', ARGV[5])
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZADD', KEYS[2], lease_until, id)
  table.insert(claimed, redis.call('HGETALL', key))
end
return claimed
`,
);

/**
 * KEYS: record, pending, leased.  ARGV: id, result JSON, completed_at.
 * Marks done once; completing a done command changes nothing. Returns the record's fields, or
 * nil for an unknown id.
 */
export const completeCommandScript = new LuaScript(
  'complete_command',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HGET', KEYS[1], 'status') ~= 'done' then
  redis.call('HSET', KEYS[1], 'status', 'done', 'result', ARGV[2], 'completed_at', ARGV[3])
  redis.call('HDEL', KEYS[1], 'lease_until', 'consumer')
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
end
return redis.call('HGETALL', KEYS[1])
`,
);

/**
 * KEYS: record, pending, leased, head, entry, indexes…  ARGV: id, result JSON, completed_at, then the
 * chain arguments from ARGV[4].
 * Marks the command done AND appends its audit entry in one step, so a command is never done without
 * its entry. Returns {1, record fields} when done now, {2, record fields} when it was already done
 * (nothing written: its entry was written then), {0, head_seq, head_hash, head_at} when the chain
 * head moved, {-2, server ms, writer ms} for a writer's clock too far from the server's (nothing
 * written either way), or nil for an unknown id.
 */
export const completeWithEntryScript = new LuaScript(
  'complete_command_with_entry',
  `${CHAIN_FUNCTIONS}
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HGET', KEYS[1], 'status') == 'done' then return {2, redis.call('HGETALL', KEYS[1])} end
local moved = head_mismatch(KEYS[4], KEYS[5], ARGV[4], ARGV[5], ARGV[14])
if moved then return moved end
redis.call('HSET', KEYS[1], 'status', 'done', 'result', ARGV[2], 'completed_at', ARGV[3])
redis.call('HDEL', KEYS[1], 'lease_until', 'consumer')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
append_entry(4, 4)
return {1, redis.call('HGETALL', KEYS[1])}
`,
);

/**
 * KEYS: control, head, entry, indexes…  ARGV: n (1 + the number of field/value strings), the
 * record's field/value strings (ARGV[2..n]), channel, record JSON, then the chain arguments from
 * ARGV[n + 3].
 * The operator's adoption (`tcs store adopt`): replaces the control record whatever it was (or
 * creates it in an empty store), appends the audit entry and publishes the record. Returns {1} or
 * {0, head_seq, head_hash} when the chain head moved.
 */
export const adoptScript = new LuaScript(
  'adopt_store',
  `${CHAIN_FUNCTIONS}
local n = tonumber(ARGV[1])
local moved = head_mismatch(KEYS[2], KEYS[3], ARGV[n + 3], ARGV[n + 4], ARGV[n + 13])
if moved then return moved end
redis.call('DEL', KEYS[1])
for i = 2, n - 1, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
append_entry(2, n + 3)
redis.call('PUBLISH', ARGV[n + 1], ARGV[n + 2])
return {1}
`,
);

/**
 * KEYS: control, event head.  ARGV: changed_at, new identity, mode ('create' or 'upgrade'), the new
 * record's MAC ('' for none).
 * Gives a store from before identities its identity ('exists'); with 'create', creates the record of
 * a brand-new store ('created'); with 'upgrade', reports an empty store ('empty'). A store with an
 * audit trail but no record lost data and is never created as new ('audit:<entries>').
 */
export const initialiseScript = new LuaScript(
  'initialise_store',
  `
if redis.call('HEXISTS', KEYS[1], 'store_id') == 1 then return 'exists' end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'store_id', ARGV[2])
  return 'exists'
end
if ARGV[3] ~= 'create' then return 'empty' end
local seq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
if seq > 0 then return 'audit:' .. seq end
redis.call('HSET', KEYS[1], 'state', 'running', 'epoch', 0, 'changed_at', ARGV[1], 'store_id', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'mac', ARGV[4]) end
return 'created'
`,
);

/**
 * KEYS: floor, head, the entries to delete (n, oldest first), then every index key they sit in.
 * ARGV: new floor seq, new floor hash, n, then for each index key the seq to remove from it.
 * Deletes the entries and their index members and moves the floor to the last of them, in one step,
 * so the floor always names an entry once stored. Returns the number of entries deleted, 0 when the
 * floor is already there or past it, -1 when the new floor is not older than the head, -2 when the
 * entry at the new floor is not the one named.
 */
export const trimEventsScript = new LuaScript(
  'trim_events',
  `
local floor_seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local target = tonumber(ARGV[1])
if floor_seq >= target then return 0 end
local head_seq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
if target >= head_seq then return -1 end
local n = tonumber(ARGV[3])
if redis.call('HGET', KEYS[2 + n], 'hash') ~= ARGV[2] then return -2 end
local deleted = 0
for i = 3, 2 + n do
  deleted = deleted + redis.call('DEL', KEYS[i])
end
for i = 3 + n, #KEYS do
  redis.call('ZREM', KEYS[i], ARGV[4 + i - 3 - n])
end
redis.call('HSET', KEYS[1], 'seq', target, 'hash', ARGV[2])
return deleted
`,
);
