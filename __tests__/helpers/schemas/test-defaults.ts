// Deterministic stand-ins for randomUUID() and new Date() in the test tables' $defaultFn columns, so the
// same test gives the same answers in every handler mode (the parity check compares them byte for byte).
// They restart whenever a TestDatabase is reset; the columns keep $defaultFn, as an application's would.

/** The first instant the test clock answers; each call after it is 1 ms later. */
export const TEST_EPOCH = Date.UTC(2024, 0, 2, 3, 4, 5, 0);

let uuidCount = 0;
let clockTicks = 0;

/** An odd multiplier: n -> n * SCRAMBLE mod 2^48 is a bijection, so the ids never repeat (nor hit UNKNOWN_UUID's 0). */
const SCRAMBLE = 0x9e3779b97f4an + 1n;

/**
 * A well-formed version-4 UUID from a counter, `00000000-0000-4000-8000-<48 bits>`, scrambled so that
 * creation order is not primary-key order, as with random UUIDs (tests of primary-key order stay meaningful).
 */
export function nextTestUuid(): string {
  uuidCount++;
  const bits = (BigInt(uuidCount) * SCRAMBLE) & 0xffffffffffffn;
  return `00000000-0000-4000-8000-${bits.toString(16).padStart(12, '0')}`;
}

/** TEST_EPOCH, then 1 ms later on every call. */
export function nextTestDate(): Date {
  return new Date(TEST_EPOCH + clockTicks++);
}

/** Starts both sequences over (TestDatabase.reset calls it). */
export function restartTestDefaults(): void {
  uuidCount = 0;
  clockTicks = 0;
}
