// The worker of background-writes.ts: writes each file it is sent, making its directories first.
import { writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type { WriteRequest, WriterData } from "./background-writes.js";
import { directoryMaker, errorCode } from "./write.js";

const { finished, failures } = workerData as WriterData;
const makeDir = directoryMaker();

parentPort?.on("message", (batch: readonly WriteRequest[]) => {
  for (const { path, contents } of batch) {
    try {
      makeDir(dirname(path));
      writeFileSync(path, contents);
    } catch (error) {
      failures.postMessage({ path, code: errorCode(error) });
    } finally {
      Atomics.add(finished, 0, 1);
      Atomics.notify(finished, 0);
    }
  }
});
