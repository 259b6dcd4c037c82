/** A JSON object: not null, not an array (the one test every walk over untrusted values needs). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
