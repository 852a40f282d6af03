/**
 * The Lua scripts of the trading lease and of fenced writes on Redis. The lease is a string
 * `<fence>:<holder>` with a PX expiry (Redis's clock), the fence a counter that only grows — also
 * across a loss of the store's data, since a new counter starts at the server's clock in ms. Each
 * script runs atomically, so taking the lease is SET NX PX plus the fence increment in one step, and
 * a fenced write compares the fence and writes in one step.
 */
import { LuaScript } from './lua-script.js';

/**
 * KEYS: lease, fence counter.  ARGV: holder, ttl ms, holder that may be stolen from ('' for none).
 * Returns {1, fence} when taken, {0, holder, remaining ms} when someone else holds it.
 */
export const acquireLeaseScript = new LuaScript(
  'acquire_lease',
  `
local current = redis.call('GET', KEYS[1])
if current then
  local holder = string.sub(current, string.find(current, ':', 1, true) + 1)
  if holder ~= ARGV[3] then return {0, holder, redis.call('PTTL', KEYS[1])} end
end
-- A fence counter that is missing was lost with the store's data: start it at the server's clock in
-- ms, far above any token issued before, so a process still holding an old token can never match.
if redis.call('EXISTS', KEYS[2]) == 0 then
  local t = redis.call('TIME')
  redis.call('SET', KEYS[2], t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)))
end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], fence .. ':' .. ARGV[1], 'PX', ARGV[2])
return {1, fence}
`,
);

/** KEYS: lease.  ARGV: `<fence>:<holder>`, ttl ms.  Returns 1 when extended, 0 when no longer ours. */
export const renewLeaseScript = new LuaScript(
  'renew_lease',
  `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`,
);

/** KEYS: lease.  ARGV: `<fence>:<holder>`.  Deletes the lease only while it is ours. */
export const releaseLeaseScript = new LuaScript(
  'release_lease',
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`,
);

/**
 * KEYS: fence counter, the key to write.  ARGV: fence, value.
 * Writes only while `fence` is the newest token issued. Returns {1} or {0, current fence or ''}.
 */
export const fencedSetScript = new LuaScript(
  'fenced_set',
  `
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return {0, current or ''} end
redis.call('SET', KEYS[2], ARGV[2])
return {1}
`,
);
