// A named type's TypeScript declaration printed straight from its schema, as
// json-schema-to-typescript prints it (with the options of types.ts, before prettier), for the
// schemas contracts are made of: objects of named properties, strings, numbers, booleans, null,
// enums and constants, lists, unions (`anyOf`, `oneOf`), maps, and references (`tsType`). Anything
// else is declined (undefined) and json-schema-to-typescript compiles it: a tuple, an open object,
// pattern keys, a keyword this file does not know. The library normalizes, parses and optimizes the
// whole schema first, about 90 µs a property: seconds per version of a 20,000-field contract.
// test/emit/type-declaration.test.ts holds this file to the library's bytes on every declaration of
// idl/ and the good fixtures and on random schemas.

import { printNumber, printString } from "../format/json-layout.js";
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
  /** A union's members (an enum's literals too), which a map's index signature lists flat. */
  readonly members?: readonly Printed[];
  /** A `tsType`, written as given. */
  readonly custom?: boolean;
  /** An object's properties, for prettier's layout. */
  readonly fields?: readonly Field[];
  /** A map's value type and the comment over its index signature, for prettier's layout. */
  readonly index?: { readonly value: Printed; readonly comment: string };
  /** An array's items, for prettier's layout. */
  readonly items?: Printed;
  /** A literal's or a scalar's text as prettier prints it (quotes and numbers normalized). */
  readonly pretty?: string;
}

/** A property of an object type: its comment block as json-schema-to-typescript writes it, its key and type. */
interface Field {
  readonly comment: string;
  readonly key: string;
  readonly optional: boolean;
  readonly type: Printed;
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
    return { text: s.tsType, comment: described(s), custom: true, ...(IDENTIFIER.test(s.tsType) ? { pretty: s.tsType } : {}) };
  }
  if ("enum" in s || "const" in s) {
    only(s, ["enum", "const", "type", "description", "required"]);
    if ("enum" in s && "const" in s) throw new Decline();
    if (s.type !== undefined && (typeof s.type !== "string" || !ENUM_TYPES.has(s.type))) throw new Decline();
    const values: unknown[] = "const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : [];
    return union(values.map((value): Printed => {
      const pretty = prettyLiteral(value);
      return { text: literal(value), comment: undefined, ...(pretty === undefined ? {} : { pretty }) };
    }), described(s));
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
    // An item's own comment goes above what holds the list, unless the item is a list itself.
    const itemsComment = items.comment === undefined || items.comment === "" || /(^|\s)@\w/.test(items.comment) || items.items !== undefined ? undefined : `Items: ${items.comment}`;
    return { text, comment: tags === "" ? own : own ? `${own}\n\n${tags}` : tags, itemsComment, items };
  }
  if (s.type === "object" && !("properties" in s) && typeof s.additionalProperties === "object" && s.additionalProperties !== null) {
    only(s, ["type", "additionalProperties", "required", "description"]);
    if (s.required !== undefined && !(Array.isArray(s.required) && s.required.length === 0)) throw new Decline();
    const values = print(s.additionalProperties);
    const block = comment(withItems(values), values.deprecated);
    const value: Printed = { text: indexSignature(values), comment: undefined };
    return { text: `{\n${block}[k: string]: ${value.text}\n}`, comment: described(s), index: { value, comment: block } };
  }
  if (s.type === "object" || (s.type === undefined && "properties" in s)) {
    only(s, ["type", "properties", "required", "additionalProperties", "description"]);
    if (s.additionalProperties !== undefined && s.additionalProperties !== false) throw new Decline();
    const properties = s.properties as Record<string, unknown> | undefined;
    if (typeof properties !== "object" || properties === null || Array.isArray(properties)) throw new Decline();
    if (s.required !== undefined && !Array.isArray(s.required)) throw new Decline();
    const required = new Set<unknown>(s.required ?? []);
    const fields: Field[] = [];
    for (const key of Object.keys(properties)) {
      if (key === "__proto__" || key === "hasOwnProperty") throw new Decline();
      const property = print(properties[key]);
      const flagged = (properties[key] as JsonSchema).required === true || required.has(key);
      fields.push({ comment: comment(withItems(property), property.deprecated), key: keyName(key), optional: !flagged, type: property });
    }
    if (fields.length === 0) throw new Decline();
    const members = fields.map((field) => `${field.comment}${field.key}${field.optional ? "?" : ""}: ${field.type.text}`);
    return { text: `{\n${members.join("\n")}\n}`, comment: described(s), fields };
  }
  if (typeof s.type === "string" && Object.hasOwn(PRIMITIVES, s.type)) {
    only(s, ["type", "description", "required"]);
    return { text: PRIMITIVES[s.type]!, comment: described(s), pretty: PRIMITIVES[s.type]! };
  }
  throw new Decline();
};

/** A union as json-schema-to-typescript prints it: its members' texts once each, in parentheses when more than one. */
const union = (members: readonly Printed[], comment: string | undefined): Printed => {
  if (members.length === 0) throw new Decline();
  const texts = new Set<string>();
  const distinct = members.filter((member) => !texts.has(member.text) && texts.add(member.text));
  return { text: distinct.length === 1 ? distinct[0]!.text : `(${distinct.map((member) => member.text).join(" | ")})`, comment, members: distinct };
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
      for (const part of member.text.split("|")) if (part.trim()) flat.push({ text: part.trim(), comment: undefined, custom: true });
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

/** A declaration as json-schema-to-typescript prints it, and as prettier then prints that (undefined where this file is not certain). */
export interface TypeDeclaration {
  readonly text: string;
  readonly pretty: string | undefined;
}

/**
 * The declaration of `name` as json-schema-to-typescript prints `schema` (its title `name`), ending
 * in a newline, and its layout; undefined when `schema` is outside what this file prints.
 */
export const declareType = (name: string, schema: JsonSchema): TypeDeclaration | undefined => {
  try {
    const { title, ...rest } = schema;
    if (title !== name) return undefined;
    const printed = print(rest);
    // An object type is declared as an interface, anything else as a type alias.
    if (printed.fields !== undefined || printed.index !== undefined) {
      const head = comment(printed.comment, printed.deprecated);
      return { text: `${head}export interface ${name} ${printed.text}\n`, pretty: laidOut(() => `${reindent(head, 0)}export interface ${name} ${layout(printed, 0, 0, 0)}\n`) };
    }
    const head = comment(withItems(printed), printed.deprecated, false);
    const start = `export type ${name} = `;
    return { text: `${head}${start}${printed.text}\n`, pretty: laidOut(() => `${reindent(head, 0)}${after(start, layout(printed, 0, start.length, 1))};\n`) };
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};

// ---------------------------------------------------------------------------------------------
// Prettier's layout (parser babel-ts, printWidth 100) of what json-schema-to-typescript prints, for
// the declarations whose every decision is certain here: object types always expanded, a union on
// one line when it fits and else one member a line (`| ...`), comments re-indented. Anything else
// (a union of objects or one that does not fit in a list, a quoted key, non-ASCII text where a width
// is measured) is declined and prettier formats the declaration. test/emit/type-declaration.test.ts
// compares this with prettier on every declaration it prints.

const WIDTH = 100;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `print()`'s value, or undefined where it declines. */
const laidOut = (print: () => string): string | undefined => {
  try {
    return print();
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};

/** A literal type as prettier prints it; undefined for non-ASCII text, whose width this file does not measure. */
const prettyLiteral = (value: unknown): string | undefined => {
  const text = JSON.stringify(value);
  if (typeof value === "string") return /^[\x20-\x7e]*$/.test(text) ? printString(text) : undefined;
  if (typeof value === "number") return value < 0 ? `-${printNumber(text.slice(1))}` : printNumber(text);
  return text;
};

/**
 * A comment block of json-schema-to-typescript re-indented at `indent` as prettier does a JSDoc
 * comment: `*` under `*`, each line trimmed but for two trailing spaces (Markdown's line break).
 */
const reindent = (block: string, indent: number): string => {
  if (block === "") return "";
  const pad = " ".repeat(indent);
  const lines = block.slice(0, -1).split("\n");
  const last = lines.length - 1;
  return `${lines
    .map((line, i) => {
      if (i === 0) return `${pad}${line.trimEnd()}`;
      const text = line.trim();
      return `${pad} ${text}${i < last && text !== "*" && line.endsWith("  ") ? "  " : ""}`;
    })
    .join("\n")}\n`;
};

/** What a union of one member prints as: that member (prettier drops the parentheses). */
const inner = (printed: Printed): Printed => (printed.members?.length === 1 ? inner(printed.members[0]!) : printed);

/** A union of more than one member. */
const isUnion = (printed: Printed): boolean => (inner(printed).members?.length ?? 0) > 1;

/** A type's text on one line (a literal, a scalar, a name, a list or union of them), or Decline. */
const flat = (outer: Printed): string => {
  const printed = inner(outer);
  if (printed.pretty !== undefined) return printed.pretty;
  if (printed.members !== undefined) return printed.members.map(member).join(" | ");
  if (printed.items !== undefined) {
    const items = printed.items;
    if (isUnion(items)) return `(${flat(items)})[]`;
    const text = flat(items);
    if (text.startsWith("-")) throw new Decline(); // `-1[]` is no type (types.ts gives such a constant as `(-1)`)
    return `${text}[]`;
  }
  throw new Decline();
};

/** A union's member on one line: a union in it keeps its parentheses. */
const member = (printed: Printed): string => (isUnion(printed) ? `(${flat(printed)})` : flat(printed));

/**
 * `printed` laid out from `column` (on a line indented `indent`), `tail` characters following it on
 * its last line; a union, where it stands alone (a property's or an alias's whole type), broken one
 * member a line when it does not fit.
 */
const layout = (outer: Printed, indent: number, column: number, tail: number, alone = true): string => {
  const printed = inner(outer);
  if (printed.fields !== undefined) {
    const pad = " ".repeat(indent + 2);
    const members = printed.fields.map((field) => {
      if (!IDENTIFIER.test(field.key)) throw new Decline(); // prettier may unquote it
      const key = `${field.key}${field.optional ? "?" : ""}: `;
      return `${reindent(field.comment, indent + 2)}${pad}${after(key, layout(field.type, indent + 2, indent + 2 + key.length, 1))};`;
    });
    return `{\n${members.join("\n")}\n${" ".repeat(indent)}}`;
  }
  if (printed.index !== undefined) {
    const head = `${" ".repeat(indent + 2)}[k: string]: `;
    const value = printed.index.value.text;
    // Names and keywords only (a literal's text is json-schema-to-typescript's, not prettier's), on one line.
    if (!/^[\w$]+(?: \| [\w$]+)*$/.test(value) || /(?:^|\| )[-\d]/.test(value) || head.length + value.length + 1 > WIDTH) throw new Decline();
    return `{\n${reindent(printed.index.comment, indent + 2)}${head}${value};\n${" ".repeat(indent)}}`;
  }
  if (printed.items !== undefined && (printed.items.fields !== undefined || printed.items.index !== undefined)) return `${layout(printed.items, indent, column, tail + 2, false)}[]`;
  if (printed.members !== undefined && printed.members.length > 1) {
    const members = printed.members.map(member);
    const line = members.join(" | ");
    if (column + line.length + tail <= WIDTH) return line;
    if (!alone) throw new Decline();
    // On the next line when it fits there, else one member a line; the line it would have started on
    // then ends without its space.
    const pad = `\n${" ".repeat(indent + 2)}`;
    if (indent + 2 + line.length + tail <= WIDTH) return `${pad}${line}`;
    // A union among the members, or a member wider than a line, would break in ways not followed here.
    if (printed.members.some(isUnion) || members.some((m) => indent + 4 + m.length + tail > WIDTH)) throw new Decline();
    return members.map((m) => `${pad}| ${m}`).join("");
  }
  const text = flat(printed);
  if (column + text.length + tail > WIDTH) throw new Decline(); // whether prettier moves it to the next line is not known here
  return text;
};

/** `head` (ending in a space) and then `type`: a type that starts on the next line leaves no space at the end of this one. */
const after = (head: string, type: string): string => (type.startsWith("\n") ? `${head.trimEnd()}${type}` : `${head}${type}`);
