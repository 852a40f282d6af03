#!/usr/bin/env node
// Entry point of the `tcs` command. Registers tsx so the TypeScript sources run directly (no build
// step to forget), then hands over to the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
