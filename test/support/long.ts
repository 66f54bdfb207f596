// Suites that can run short (in `npm test`, on every CI run) or long (`npm run test:long`, before a
// release): the same tests, with their iteration counts and durations scaled by one switch.

/** True under `npm run test:long` (KAIRAN_TEST_LONG=1). */
export const LONG_RUN = process.env.KAIRAN_TEST_LONG === "1";

/** `short` in the everyday suite, `long` under `npm run test:long`. */
export function shortOrLong<T>(short: T, long: T): T {
  return LONG_RUN ? long : short;
}
