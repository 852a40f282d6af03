/**
 * Chat commands port: what a chat bot adapter (Telegram, src/adapters/notify/telegram-bot.ts) asks
 * of the application about each message, without knowing the rules. The application
 * (src/application/telegram-commands.ts) decides who is heard and what a command does.
 */

export interface ChatReply {
  text: string;
  /** A kill waiting for this code: the adapter offers a button that sends it back. */
  confirm?: string;
}

export interface ChatCommands {
  /** The answer to a message from `chatId`; null: say nothing (not a command, or a chat not allowed). */
  message(chatId: string, text: string): Promise<ChatReply | null>;
  /** The confirmation button's code; null as for `message`. */
  confirm(chatId: string, code: string): Promise<ChatReply | null>;
  /** Whether the chat is on the allow-list (only those are told of a failure). */
  allows(chatId: string): boolean;
}
