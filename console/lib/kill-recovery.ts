/**
 * What the KILLED banner tells the operator: the kill is latched in the store and the API cannot end
 * it, so the way out is a restart with the audited reset (docs/operate/incidents.md, "Ending a kill"). The commands are
 * the real ones (`tcs start`'s and `tcs trade`'s --reset-kill and --reason; a test holds them to
 * the CLI's help), with a placeholder where the operator writes why.
 */

export const KILL_RESET_COMMAND = 'npm start -- --reset-kill --reason "…"';
export const KILL_RESET_TRADE_COMMAND = 'node bin/tcs.mjs trade --reset-kill --reason "…"';

export const KILL_RECOVERY_TEXT =
  'Nothing trades until a restart ends the kill. Stop the service, then start it with the audited reset:';
