/**
 * The CONTROL_SECRET every test process shares unless a test says otherwise: the `tcs` children
 * (src/application/authenticated-store.ts checks what they read) and the test stores' first control
 * record (stores.ts `initialised`) must agree, as the API and the trading process of one host do.
 */
import { authenticatedStore } from '../../src/application/authenticated-store.js';
import { controlRecordMac } from '../../src/domain/control-mac.js';
import type { ControlRecord } from '../../src/domain/control.js';
import { generateKey } from '../../src/domain/keys.js';
import type { Store } from '../../src/ports/store.js';

export const TEST_CONTROL_SECRET = process.env.TCS_TEST_CONTROL_SECRET ?? generateKey();
// Worker threads and forks of one run see the same value, so the stores one file makes and the
// processes another starts agree too.
process.env.TCS_TEST_CONTROL_SECRET = TEST_CONTROL_SECRET;

/** Signs a new store's record as a process holding TEST_CONTROL_SECRET would. */
export const testControlMac = (record: ControlRecord): string => controlRecordMac(TEST_CONTROL_SECRET, record);

/** `store` as the test's `tcs` processes use it: what the test writes through it is signed, as theirs is. */
export const signedWith = (store: Store): Store => authenticatedStore(store, TEST_CONTROL_SECRET);
