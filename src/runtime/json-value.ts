// The check of an IDL `json` value: what `JSON.stringify` would write faithfully (no undefined,
// function, symbol, bigint, NaN or ±Infinity; an object is its own enumerable keys, each value read
// once, a getter's as the snapshot reads it). It walks with an explicit stack, never by recursion,
// so no payload can exhaust the call stack, and it stops at the first bound passed: a value nested
// past the depth bound is not walked below it, bytes are counted as the walk goes, so a huge value
// is never serialized (nor read much past `maxBytes`), and values as they are reached, so one that
// shares objects (JSON of 2^26 values in 27 arrays) is refused past MAX_NODES.
import { countWalked, MAX_NODES } from "./max-nodes.js";

/**
 * The depth no `json` value may pass, declared `maxDepth` or not: consumers of the value (a
 * serializer, a recursive reader) then cannot be driven into a stack overflow by it.
 */
export const JSON_DEPTH_LIMIT = 64;

/** Why a value fails a `json` type; each is the issue code the validator reports. */
export type JsonFault = "json" | "jsonDepth" | "maxDepth" | "maxBytes";

/** UTF-8 bytes of `s` as `JSON.stringify` writes it, quotes included. */
const stringBytes = (s: string): number => {
  let bytes = 2;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit < 0x20) bytes += unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13 ? 2 : 6;
    else if (unit === 0x22 || unit === 0x5c) bytes += 2;
    else if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) bytes += 6; // a lone surrogate is written `\udxxx`
    else bytes += 3;
  }
  return bytes;
};

/**
 * Why `value` is not a JSON value within `maxDepth` levels of arrays and objects and `maxBytes`
 * UTF-8 bytes of its `JSON.stringify` form, or undefined when it is. Past `JSON_DEPTH_LIMIT` it
 * is `jsonDepth` when no tighter `maxDepth` was declared; past MAX_NODES values, `json`. What it
 * visits counts into the generated call in progress (`countWalked`).
 */
export const jsonFault = (value: unknown, maxDepth?: number, maxBytes?: number): JsonFault | undefined => {
  const depthBound = maxDepth !== undefined && maxDepth < JSON_DEPTH_LIMIT ? maxDepth : JSON_DEPTH_LIMIT;
  const depthFault: JsonFault = depthBound === maxDepth ? "maxDepth" : "jsonDepth";
  const counting = maxBytes !== undefined;
  let bytes = 0;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let visited = 1;
  try {
    while (values.length > 0) {
      const v = values.pop();
      const depth = depths.pop()!;
      switch (typeof v) {
        case "string":
          // Every UTF-16 unit takes at least one byte: a string longer than what is left is never counted.
          if (counting) bytes += v.length + 2 > maxBytes - bytes ? maxBytes + 1 : stringBytes(v);
          break;
        case "number":
          if (!Number.isFinite(v)) return "json";
          if (counting) bytes += String(v).length;
          break;
        case "boolean":
          if (counting) bytes += v ? 4 : 5;
          break;
        case "object": {
          if (v === null) {
            if (counting) bytes += 4;
            break;
          }
          if (depth >= depthBound) return depthFault;
          if (Array.isArray(v)) {
            if (counting) bytes += v.length === 0 ? 2 : v.length + 1;
            if ((visited += v.length) > MAX_NODES) return counting && bytes > maxBytes ? "maxBytes" : "json"; // past MAX_NODES
            for (let i = v.length - 1; i >= 0; i--) {
              values.push(v[i]);
              depths.push(depth + 1);
            }
          } else {
            // Its own keys, as JSON.stringify and the rest of the validator read an object.
            const keys = Object.keys(v);
            if (counting) bytes += keys.length === 0 ? 2 : keys.length + 1;
            if ((visited += keys.length) > MAX_NODES) return counting && bytes > maxBytes ? "maxBytes" : "json"; // past MAX_NODES
            for (const key of keys) {
              if (counting) bytes += (key.length + 3 > maxBytes - bytes ? maxBytes + 1 : stringBytes(key)) + 1;
              values.push((v as Record<string, unknown>)[key]);
              depths.push(depth + 1);
            }
          }
          break;
        }
        default:
          return "json";
      }
      if (counting && bytes > maxBytes) return "maxBytes";
    }
    return undefined;
  } finally {
    countWalked(visited);
  }
};
