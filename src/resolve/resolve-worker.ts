// A worker thread of resolve-sources.ts: loads and resolves the share of a project's sources it is
// given, and sends back the share and the pattern verdicts it reached (an error as text).
import { parentPort, workerData } from "node:worker_threads";
import { durableVerdicts, rememberVerdicts } from "./pattern-safety.js";
import { loadShare, type ShareRequest, type ShareResponse } from "./resolve-sources.js";

const request = workerData as ShareRequest;
let response: ShareResponse;
try {
  rememberVerdicts(request.verdicts);
  response = { share: loadShare(request.sources, request.llm), verdicts: durableVerdicts() };
} catch (error) {
  response = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
parentPort!.postMessage(response);
