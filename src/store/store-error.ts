// What an event store throws: a bad argument or a store it cannot use, never a raw library error.
// Outcomes a caller expects (a conflict, a consumed token) are results, not errors.
import type { Issue } from "../runtime/issue.js";

/** Every code a store throws, and whether the same call may succeed later unchanged. */
export const STORE_ERRORS = {
  /** The event is not an AgentEvent; `issues` say where. */
  INVALID_EVENT: { retryable: false },
  /** The query has an unknown key, a bad value or `to` before `from`; `issues` say where. */
  INVALID_QUERY: { retryable: false },
  /** A token id, idempotency key, hash or result is malformed; `issues` say where. */
  INVALID_ARGUMENT: { retryable: false },
  /** The store was closed. */
  STORE_CLOSED: { retryable: false },
  /** The SQLite store needs the optional peer dependency better-sqlite3 (`npm install better-sqlite3@12`). */
  SQLITE_UNAVAILABLE: { retryable: false },
  /** The file cannot be opened or created (a missing directory, no permission). */
  CANNOT_OPEN: { retryable: false },
  /** The file is not a treaty event store (another SQLite database, or not SQLite at all), or it is corrupt. */
  NOT_A_STORE: { retryable: false },
  /** The file was written by a newer treaty whose schema this one does not know. */
  SCHEMA_TOO_NEW: { retryable: false },
  /** Another connection held the write lock past the busy timeout. */
  STORE_BUSY: { retryable: true },
  /** The disk or file system failed (full, read-only, I/O error). */
  STORE_IO: { retryable: true },
} as const;
export type StoreErrorCode = keyof typeof STORE_ERRORS;

export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly retryable: boolean;
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly issues: readonly Issue[] = [],
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${message}`, options);
    this.retryable = STORE_ERRORS[code].retryable;
  }
}
