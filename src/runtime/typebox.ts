// Generated schema.ts files import TypeBox through treaty, so a producer's package manager resolves
// it from treaty's own dependencies whether or not the producer depends on TypeBox itself.
import { Type, type Static, type TSchema, type TUnsafe } from "typebox";
import type { JsonValue } from "./repair.js";

export { Type };
/** A schema's TypeScript type: for the generated schemas, the version's generated type. */
export type { Static };

/** JSON Schema keywords beside what a builder says (`description`, `minItems`, ...). */
type Keywords = Readonly<Record<string, unknown>>;

/**
 * A tuple as 2020-12 says it (`prefixItems`, as the JSON Schema and the validator have it; TypeBox's
 * own Tuple writes draft-07's `items: [...]`), typed as its items are: `Type.Unsafe` alone is `unknown`.
 */
export const tupleOf = <const T extends readonly TSchema[]>(items: T, keywords: Keywords = {}): TUnsafe<{ -readonly [K in keyof T]: Static<T[K]> }> =>
  Type.Unsafe({ type: "array", prefixItems: items, ...keywords } as unknown as TSchema);

/**
 * A map: an object of any keys, each value a `value` (TypeBox's Object of no properties is typed
 * `{}`); a key read may be absent, as the generated types say (`| undefined`).
 */
export const mapOf = <V extends TSchema>(value: V, keywords: Keywords = {}): TUnsafe<{ [key: string]: Static<V> | undefined }> =>
  Type.Unsafe({ type: "object", additionalProperties: value, ...keywords } as unknown as TSchema);

/** A `json` field: any JSON value (`Type.Unknown` is typed `unknown`), bounded as its keywords say. */
export const jsonOf = (keywords: Keywords = {}): TUnsafe<JsonValue> => Type.Unsafe({ ...keywords } as unknown as TSchema);
