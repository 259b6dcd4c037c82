// A worker thread of the format pool: formats what the pipeline sends (see format-text.ts), or lays
// out a JSON file (json-layout.ts), a batch of requests per message and one message of results per batch.
import { parentPort } from "node:worker_threads";
import type { EmittedFile } from "../emit/file-builder.js";
import { formatText } from "./format-text.js";
import { layoutJson } from "./json-layout.js";

export interface FormatRequest {
  readonly id: number;
  readonly contents: string;
  readonly language: EmittedFile["language"];
  /** Only JSON's layout without prettier: `laidOut` is undefined where it declines. */
  readonly layoutOnly?: boolean;
}

export type FormatResponse =
  | { readonly id: number; readonly formatted: string }
  | { readonly id: number; readonly laidOut: string | undefined }
  | { readonly id: number; readonly error: string };

const respond = async (request: FormatRequest): Promise<FormatResponse> => {
  try {
    if (request.layoutOnly) return { id: request.id, laidOut: layoutJson(request.contents) };
    return { id: request.id, formatted: await formatText(request.contents, request.language) };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
};

parentPort?.on("message", async (batch: readonly FormatRequest[]) => {
  const responses: FormatResponse[] = [];
  for (const request of batch) responses.push(await respond(request));
  parentPort!.postMessage(responses);
});
