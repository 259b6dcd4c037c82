// How a provider writes a contract value under its projection, read from the projection's schema
// alone (independent of treaty's mapping): null for an absent property the projection says may be
// null, a map as a list of `{ key, value }` entries where the projection has an array for an
// object, walking into the `anyOf` branch the value is written in (Ajv decides which).
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { LlmProvider } from "../../src/ir/model.js";
import { escapePointer } from "../../src/runtime/issue.js";

type Schema = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const admitsNull = (s: Schema): boolean => ((s["anyOf"] as Schema[] | undefined) ?? []).some((b) => b["type"] === "null");

/** The schema a provider's request fragment carries. */
export const schemaOf = (provider: LlmProvider, projection: Record<string, any>): Schema =>
  provider === "openai" ? projection.response_format.json_schema.schema
  : provider === "anthropic" ? projection.tool.input_schema
  : provider === "gemini" ? projection.generationConfig.responseJsonSchema
  : projection.tool.inputSchema;

/** What the provider sends, and the contract value it stands for (an absent field the provider cannot leave out is null in both). */
export interface Written {
  readonly sent: unknown;
  readonly meant: unknown;
}

/** `value` written under `schema`; `widened`: the pointers (`*` for items and keys) where null means absent. Undefined when it cannot be written so. */
export const writeUnder = (ajv: Ajv2020, schema: Schema, value: unknown, widened: readonly string[], at = ""): Written | undefined => {
  const branches = (schema["anyOf"] as Schema[] | undefined)?.filter((b) => b["type"] !== "null");
  if (branches) {
    for (const branch of branches) {
      const written = writeUnder(ajv, branch, value, widened, at);
      if (written !== undefined && ajv.validate(branch, written.sent)) return written;
    }
    return undefined;
  }
  if (schema["type"] === "array" && isRecord(schema["items"])) {
    const items = schema["items"] as Schema;
    const list = Array.isArray(value) ? value.map((item) => writeUnder(ajv, items, item, widened, `${at}/*`)) : undefined;
    if (list) return list.includes(undefined) ? undefined : { sent: list.map((w) => w!.sent), meant: list.map((w) => w!.meant) };
    if (!isRecord(value)) return { sent: value, meant: value };
    // A map where the projection has an array: entries.
    const valueSchema = (items["properties"] as Record<string, Schema>)["value"]!;
    const entries = Object.entries(value).map(([key, v]) => [key, writeUnder(ajv, valueSchema, v, widened, `${at}/*`)] as const);
    if (entries.some(([, w]) => w === undefined)) return undefined;
    return { sent: entries.map(([key, w]) => ({ key, value: w!.sent })), meant: Object.fromEntries(entries.map(([key, w]) => [key, w!.meant])) };
  }
  if (!isRecord(schema["properties"])) return { sent: value, meant: value };
  // A tuple where the projection has an object keyed by position.
  if (Array.isArray(value)) {
    const positions = value.map((item, i) => writeUnder(ajv, (schema["properties"] as Record<string, Schema>)[String(i)] ?? {}, item, widened, `${at}/${i}`));
    if (positions.includes(undefined)) return undefined;
    return { sent: Object.fromEntries(positions.map((w, i) => [String(i), w!.sent])), meant: positions.map((w) => w!.meant) };
  }
  if (!isRecord(value)) return { sent: value, meant: value };
  // A kept object's unknown keys cannot be written where the projection closes it (the ledger says
  // so); in a union, the branch of another variant is closed to them and the next one is tried.
  const declared = schema["properties"] as Record<string, Schema>;
  if (schema["additionalProperties"] === false && Object.keys(value).some((key) => !Object.hasOwn(declared, key))) return undefined;
  const sent: Record<string, unknown> = { ...value };
  const meant: Record<string, unknown> = { ...value };
  for (const [key, property] of Object.entries(schema["properties"] as Record<string, Schema>)) {
    const pointer = `${at}/${escapePointer(key)}`;
    if (Object.hasOwn(value, key)) {
      // Where null means absent, a present null (a json value's) cannot be written.
      if (value[key] === null && widened.includes(pointer)) return undefined;
      const written = value[key] === null ? { sent: null, meant: null } : writeUnder(ajv, property, value[key], widened, pointer);
      if (written === undefined) return undefined;
      sent[key] = written.sent;
      meant[key] = written.meant;
    } else if (widened.includes(pointer)) sent[key] = null;
    else if (admitsNull(property) && (schema["required"] as string[] | undefined)?.includes(key)) {
      sent[key] = null;
      meant[key] = null;
    }
  }
  return { sent, meant };
};
