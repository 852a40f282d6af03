/**
 * Whether Redis may evict our keys. Redis drops keys on its own when memory reaches `maxmemory`
 * under any `maxmemory-policy` but `noeviction`: the audit trail, the control record, the command
 * queue — and, under the `volatile-*` policies (which evict only keys with a TTL), the trading lease,
 * the one key we give a TTL (`SET … PX`), so a second trader could take the store. Judged on the
 * policy alone, whatever `maxmemory` is now: `CONFIG SET maxmemory` changes it at any moment.
 *
 * The policy is read from `INFO memory` (`maxmemory_policy`), not CONFIG GET: managed Redis services
 * rename or forbid CONFIG but serve INFO. A server that refuses INFO too (an ACL without `+info`)
 * cannot be judged, so it is taken as evicting (fail-closed), with the way out in the message.
 */
import type { Redis } from 'ioredis';

export const NOEVICTION_FIX =
  'set it with `CONFIG SET maxmemory-policy noeviction` (and `maxmemory-policy noeviction` in redis.conf, so a restart keeps it)';

export async function evictionRisk(redis: Redis): Promise<string | null> {
  let info: string;
  try {
    info = await redis.info('memory');
  } catch (err) {
    // Refused by the server (NOPERM, a renamed command): the connection failures go to the caller.
    if (!(err instanceof Error) || err.name !== 'ReplyError') throw err;
    return (
      `cannot read maxmemory-policy (INFO refused: ${err.message}), so Redis may evict our keys for all we know: ` +
      `allow INFO to this Redis user (ACL SETUSER <user> +info) and make sure the policy is noeviction`
    );
  }
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy === 'noeviction') return null;
  if (policy === undefined) return `cannot read maxmemory-policy (INFO memory does not say it): ${NOEVICTION_FIX}`;
  const what = policy.startsWith('volatile-')
    ? 'the trading lease (it has a TTL), so a second trading process could take the store'
    : 'the audit trail, the control record and the command queue';
  return `Redis maxmemory-policy is ${policy}: when memory runs out Redis evicts ${what}; ${NOEVICTION_FIX}`;
}
