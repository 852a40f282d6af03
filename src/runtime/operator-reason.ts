/**
 * A `--reason TEXT` from the `tcs` command line, checked as the API checks a reason: it is stored in
 * the control record and the audit trail, so it has the same bound, and a refusal writes nothing.
 */
import { REASON_MAX_LENGTH } from '../domain/control.js';
import { ConfigError } from './config-error.js';

/** The trimmed reason; `needed` names the command for the message when it is required and missing. */
export function operatorReason(raw: string | undefined, needed?: string): string | undefined {
  const reason = raw?.trim();
  if (!reason) {
    if (needed !== undefined) throw new ConfigError(`${needed} needs --reason TEXT (it is audited)`);
    return undefined;
  }
  if (reason.length > REASON_MAX_LENGTH) {
    throw new ConfigError(`--reason is longer than ${REASON_MAX_LENGTH} characters (${reason.length})`);
  }
  return reason;
}
