/**
 * A configuration value that stops the start: its message names the variable and says what is
 * expected, and `tcs` turns it into exit 2 without a stack trace. Its own module so the config
 * readers (./config.ts, ./exchange-config.ts) can share it without importing each other.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
