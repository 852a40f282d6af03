/**
 * Commands: work the API asks the trading process to carry out (cancel-all, deleverage, the kill's
 * cancels), as records in the command queue. Shared by the queue port, its adapters, the order
 * manager machine and the application's command execution, so it lives in the domain.
 */

export type CommandType = 'cancel_all' | 'deleverage' | 'kill_cancels';

export interface Command {
  id: string;
  type: CommandType;
  payload: Record<string, unknown>;
  /** ISO 8601 UTC. */
  enqueued_at: string;
}

export type CommandStatus = 'pending' | 'claimed' | 'done';

export interface CommandRecord extends Command {
  status: CommandStatus;
  /** How many times it was claimed. */
  attempts: number;
  result: Record<string, unknown> | null;
  completed_at: string | null;
}
