// Run as a child process by test/store/login-failures.test.ts: opens the store named by argv[2]
// (a JSON StoreConfig), counts `argv[4]` sign-in attempts for subject argv[3] at once, and prints
// the counts it got back as JSON. Two of these at once are two server processes guessing together.
import { openStore } from "../../src/store/open.js";

const [config, subject, times] = process.argv.slice(2);
const store = await openStore(JSON.parse(config ?? "{}"));
try {
  const counts = await Promise.all(
    Array.from({ length: Number(times) }, () =>
      store.transaction((tx) => tx.loginFailures.count("pair", subject ?? "", 1_700_000_000_000, 900_000)),
    ),
  );
  console.log(JSON.stringify(counts.map((count) => count.failures)));
} finally {
  await store.close();
}
