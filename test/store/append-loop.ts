// The child of the kill test: appends `bulkyEvent(0)`, `bulkyEvent(1)`, ... to the SQLite store at
// argv[2] until it is killed, printing the number of events committed so far after every append.
// Events already in the file come back as duplicates; anything else is a failure (exit 2).
import { openSqliteStore } from "../../src/store-sqlite/index.js";
import { bulkyEvent } from "../support/agent-events.js";

const store = openSqliteStore(process.argv[2]!);
for (let n = 0; ; n++) {
  const result = store.append(bulkyEvent(n));
  if (!result.ok) {
    process.stderr.write(`append ${n}: ${result.code}\n`);
    process.exit(2);
  }
  // Synchronous on a pipe (Linux): the parent reads each count as soon as it is committed.
  process.stdout.write(`${n + 1}\n`);
}
