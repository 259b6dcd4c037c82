// A named type's TypeScript declaration printed straight from its schema, as
// json-schema-to-typescript prints it (with the options of types.ts, before prettier), for the
// schemas contracts are made of: objects of named properties, strings, numbers, booleans, null,
// enums and constants, lists, unions (`anyOf`, `oneOf`), maps, and references (`tsType`). Anything
// else is declined (undefined) and json-schema-to-typescript compiles it: a tuple, an open object,
// pattern keys, a keyword this file does not know. The library normalizes, parses and optimizes the
// whole schema first, about 90 µs a property: seconds per version of a 20,000-field contract.
// test/emit/type-declaration.test.ts holds this file to the library's bytes on every declaration of
// idl/ and the good fixtures and on random schemas.

import type { JsonSchema } from "./json-schema.js";

/** Thrown where the schema is outside the subset; `declareType` then declines. */
class Decline {}

/** Keywords that constrain values but shape no type: json-schema-to-typescript reads none of them. */
const IGNORED = new Set(["minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "minProperties", "maxProperties"]);
const PRIMITIVES: Readonly<Record<string, string>> = { string: "string", integer: "number", number: "number", boolean: "boolean", null: "null" };
const ENUM_TYPES = new Set(["string", "integer", "number", "boolean"]);

/** A type as json-schema-to-typescript prints it inline, with the comment its declaration or property carries. */
interface Printed {
  readonly text: string;
  /** The JSDoc text (undefined for none). */
  readonly comment: string | undefined;
  /** `deprecated: true`: an `@deprecated` tag first in the comment of a property or an interface. */
  readonly deprecated?: boolean;
  /** An array's items' comment, which goes into the comment of what holds it (`Items: ...`). */
  readonly itemsComment?: string | undefined;
  /** An object is declared as an interface when it is the declaration's root; an array's items' comment is never an array's. */
  readonly kind: "object" | "array" | "other";
  /** A union's members (an enum's literals too), which a map's index signature lists flat. */
  readonly members?: readonly Printed[];
  /** A `tsType`, written as given. */
  readonly custom?: boolean;
}

/** `keys` of `schema` all among `allowed` or ignored ones. */
const only = (schema: JsonSchema, allowed: readonly string[]): void => {
  for (const key of Object.keys(schema)) if (!allowed.includes(key) && !IGNORED.has(key) && key !== "deprecated") throw new Decline();
  if (schema.deprecated !== undefined && typeof schema.deprecated !== "boolean") throw new Decline(); // json-schema-to-typescript refuses it
};

/** A description as json-schema-to-typescript keeps it: a closing comment mark broken apart. */
const described = (schema: JsonSchema): string | undefined => {
  const { description } = schema;
  if (description === undefined) return undefined;
  if (typeof description !== "string") throw new Decline();
  return description.replace(/\*\//g, "* /");
};

const literal = (value: unknown): string => {
  if (typeof value === "string" || typeof value === "boolean" || value === null || (typeof value === "number" && Number.isFinite(value))) return JSON.stringify(value);
  throw new Decline();
};

/**
 * A JSDoc block and the newline after it; nothing without a comment or a deprecation. A type alias's
 * block never says `@deprecated` (`tagged` false), though a deprecation still makes one.
 */
const comment = (text: string | undefined, deprecated = false, tagged = true): string =>
  (text === undefined || text === "") && !deprecated
    ? ""
    : `/**\n${deprecated && tagged ? " * @deprecated\n" : ""}${text === undefined ? "" : `${text.split("\n").map((line) => ` * ${line}`).join("\n")}\n`} */\n`;

/** A property key as json-schema-to-typescript writes it: bare when an identifier, else quoted. */
const keyName = (key: string): string => (key.length > 0 && /[A-Za-z_$]/.test(key.charAt(0)) && /^[\w$]+$/.test(key) ? key : JSON.stringify(key));

const print = (schema: unknown): Printed => {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Decline();
  const printed = printType(schema as JsonSchema);
  return (schema as JsonSchema).deprecated === true ? { ...printed, deprecated: true } : printed;
};

const printType = (s: JsonSchema): Printed => {
  if ("tsType" in s) {
    only(s, ["tsType", "description", "required"]);
    if (typeof s.tsType !== "string") throw new Decline();
    return { text: s.tsType, comment: described(s), kind: "other", custom: true };
  }
  if ("enum" in s || "const" in s) {
    only(s, ["enum", "const", "type", "description", "required"]);
    if ("enum" in s && "const" in s) throw new Decline();
    if (s.type !== undefined && (typeof s.type !== "string" || !ENUM_TYPES.has(s.type))) throw new Decline();
    const values: unknown[] = "const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : [];
    return union(values.map((value): Printed => ({ text: literal(value), comment: undefined, kind: "other" })), described(s));
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    if (!(keyword in s)) continue;
    only(s, [keyword, "description", "required"]);
    const branches: unknown = s[keyword];
    if (!Array.isArray(branches)) throw new Decline();
    return union(branches.map(print), described(s));
  }
  if (s.type === "array") {
    only(s, ["type", "items", "minItems", "maxItems", "description", "required"]);
    const items = print(s.items);
    if ("minItems" in s && "maxItems" in s && bound(s.minItems) > bound(s.maxItems)) throw new Decline(); // json-schema-to-typescript refuses it
    const tags = [...("minItems" in s ? [`@minItems ${bound(s.minItems)}`] : []), ...("maxItems" in s ? [`@maxItems ${bound(s.maxItems)}`] : [])].join("\n");
    const own = described(s);
    const text = items.text.endsWith('"') ? `(${items.text})[]` : `${items.text}[]`;
    const itemsComment = items.comment === undefined || items.comment === "" || /(^|\s)@\w/.test(items.comment) || items.kind === "array" ? undefined : `Items: ${items.comment}`;
    return { text, comment: tags === "" ? own : own ? `${own}\n\n${tags}` : tags, itemsComment, kind: "array" };
  }
  if (s.type === "object" && !("properties" in s) && typeof s.additionalProperties === "object" && s.additionalProperties !== null) {
    only(s, ["type", "additionalProperties", "required", "description"]);
    if (s.required !== undefined && !(Array.isArray(s.required) && s.required.length === 0)) throw new Decline();
    const values = print(s.additionalProperties);
    return { text: `{\n${comment(withItems(values), values.deprecated)}[k: string]: ${indexSignature(values)}\n}`, comment: described(s), kind: "object" };
  }
  if (s.type === "object" || (s.type === undefined && "properties" in s)) {
    only(s, ["type", "properties", "required", "additionalProperties", "description"]);
    if (s.additionalProperties !== undefined && s.additionalProperties !== false) throw new Decline();
    const properties = s.properties as Record<string, unknown> | undefined;
    if (typeof properties !== "object" || properties === null || Array.isArray(properties)) throw new Decline();
    if (s.required !== undefined && !Array.isArray(s.required)) throw new Decline();
    const required = new Set<unknown>(s.required ?? []);
    const members: string[] = [];
    for (const key of Object.keys(properties)) {
      if (key === "__proto__" || key === "hasOwnProperty") throw new Decline();
      const property = print(properties[key]);
      const flagged = (properties[key] as JsonSchema).required === true || required.has(key);
      members.push(`${comment(withItems(property), property.deprecated)}${keyName(key)}${flagged ? "" : "?"}: ${property.text}`);
    }
    if (members.length === 0) throw new Decline();
    return { text: `{\n${members.join("\n")}\n}`, comment: described(s), kind: "object" };
  }
  if (typeof s.type === "string" && Object.hasOwn(PRIMITIVES, s.type)) {
    only(s, ["type", "description", "required"]);
    return { text: PRIMITIVES[s.type]!, comment: described(s), kind: "other" };
  }
  throw new Decline();
};

/** A union as json-schema-to-typescript prints it: its members' texts once each, in parentheses when more than one. */
const union = (members: readonly Printed[], comment: string | undefined): Printed => {
  if (members.length === 0) throw new Decline();
  const texts = new Set<string>();
  const distinct = members.filter((member) => !texts.has(member.text) && texts.add(member.text));
  return { text: distinct.length === 1 ? distinct[0]!.text : `(${distinct.map((member) => member.text).join(" | ")})`, comment, kind: "other", members: distinct };
};

/**
 * The type of a map's index signature (`strictIndexSignatures`): the value type's members, a
 * union's flattened and a `tsType` of names split at `|`, each once, and `undefined`.
 */
const indexSignature = (value: Printed): string => {
  if (value.custom && (value.text.trim() === "any" || value.text.trim() === "unknown")) return `${value.text} | undefined`;
  const flat: Printed[] = [];
  const add = (member: Printed): void => {
    if (member.members !== undefined) member.members.forEach(add);
    else if (member.custom && member.text.includes("|") && /^[\w$.\s|]+$/.test(member.text)) {
      for (const part of member.text.split("|")) if (part.trim()) flat.push({ text: part.trim(), comment: undefined, kind: "other", custom: true });
    } else flat.push(member);
  };
  add(value);
  if (flat.some((member) => member.custom && (member.text.trim() === "any" || member.text.trim() === "unknown"))) throw new Decline();
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const member of flat) {
    if (seen.has(member.text)) continue;
    seen.add(member.text);
    texts.push(member.custom && !/^[\w$.]+(\[\])*$/.test(member.text) ? `(${member.text})` : member.text);
  }
  if (!seen.has("undefined")) texts.push("undefined");
  return texts.join(" | ");
};

const bound = (value: unknown): number => {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new Decline();
  return value;
};

/** The comment of what holds `printed`: its own, then its items' (`Items: ...`). */
const withItems = (printed: Printed): string | undefined =>
  printed.itemsComment === undefined ? printed.comment : printed.comment ? `${printed.comment}\n\n${printed.itemsComment}` : printed.itemsComment;

/**
 * The declaration of `name` as json-schema-to-typescript prints `schema` (its title `name`), ending
 * in a newline; undefined when `schema` is outside what this file prints.
 */
export const declareType = (name: string, schema: JsonSchema): string | undefined => {
  try {
    const { title, ...rest } = schema;
    if (title !== name) return undefined;
    const printed = print(rest);
    return printed.kind === "object"
      ? `${comment(printed.comment, printed.deprecated)}export interface ${name} ${printed.text}\n`
      : `${comment(withItems(printed), printed.deprecated, false)}export type ${name} = ${printed.text}\n`;
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};
