// A worker thread of the format pool: formats what the pipeline sends (see format-text.ts), one file or batch per message.
import { parentPort } from "node:worker_threads";
import type { EmittedFile } from "../emit/file-builder.js";
import { formatText } from "./format-text.js";

export interface FormatRequest {
  readonly id: number;
  readonly contents: string;
  readonly language: EmittedFile["language"];
}

export type FormatResponse = { readonly id: number; readonly formatted: string } | { readonly id: number; readonly error: string };

parentPort?.on("message", (request: FormatRequest) => {
  formatText(request.contents, request.language).then(
    (formatted) => parentPort!.postMessage({ id: request.id, formatted } satisfies FormatResponse),
    (error: unknown) => parentPort!.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies FormatResponse),
  );
});
