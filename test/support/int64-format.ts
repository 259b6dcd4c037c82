// ajv-formats' `int64` applies to numbers only, so under it Ajv accepts any string of that format.
// treaty's `int64` is a string (OpenAPI's int64 carried as text, as JSON numbers lose precision
// past 2^53): its referee is JSON's integer grammar and BigInt's range, written independently.
import type { Ajv2020 } from "ajv/dist/2020.js";

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

export const isInt64String = (s: string): boolean => INTEGER.test(s) && BigInt(s) >= -(2n ** 63n) && BigInt(s) < 2n ** 63n;

/** Makes `ajv` (with ajv-formats added) check `format: int64` on strings as treaty means it. */
export const addInt64StringFormat = (ajv: Ajv2020): void => {
  ajv.addFormat("int64", { type: "string", validate: isInt64String });
};
