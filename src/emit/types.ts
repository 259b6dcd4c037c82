import type { Options } from "json-schema-to-typescript";
import type { Contract, Project, ResolvedVersion } from "../ir/model.js";
import { rootTypeName } from "../ir/names.js";
import { createEmitterMemo } from "./emitter-memo.js";
import { createFileBuilder, type EmittedFile, type FileBuilder } from "./file-builder.js";
import {
  buildSchemaDocument,
  localDefOrder,
  mapSubschemas,
  moduleSpecifier,
  refName,
  versionFilePath,
  type JsonSchema,
} from "./json-schema.js";
import { contentHash } from "../write/write.js";
import { declareType, type TypeDeclaration } from "./type-declaration.js";

const COMPILE_OPTIONS: Partial<Options> = {
  bannerComment: "",
  format: false,
  additionalProperties: false,
  declareExternallyReferenced: true,
  unreachableDefinitions: false,
  strictIndexSignatures: true,
  // `minItems: 1` would otherwise turn a list into a tuple type.
  ignoreMinAndMaxItems: true,
  unknownAny: true,
  // Every `$ref` is replaced by a `tsType` first; never let the ref parser touch files or network.
  $refOptions: { resolve: { external: false } },
};

/**
 * Keywords that shape no type: presence rules (`allOf` of `not required`, `dependentRequired`),
 * document metadata, and `title`, which would make json-schema-to-typescript declare a type.
 */
const isTypeless = (key: string, value: unknown): boolean =>
  key === "$ref" ||
  key === "$comment" ||
  key === "$schema" ||
  key === "title" ||
  key === "allOf" ||
  key === "dependentRequired" ||
  key.startsWith("x-treaty-") ||
  // With the `additionalProperties: false` option, only a map's value schema makes an index signature.
  (key === "additionalProperties" && typeof value === "boolean");

/**
 * The schema json-schema-to-typescript compiles: no `$ref` left, each replaced by `reference`; a
 * `json` value as `json()` says; a tuple's `prefixItems`, which it does not read, as draft-07's
 * `items: [...]`.
 */
const typeSchema = (schema: JsonSchema, reference: (name: string) => JsonSchema, json: () => JsonSchema): JsonSchema => {
  if ("x-treaty-json" in schema) return { ...json(), ...(schema.description === undefined ? {} : { description: schema.description }) };
  const name = refName(schema);
  const { prefixItems, ...rest } = schema;
  const tuple = Array.isArray(prefixItems) ? { items: prefixItems.map((item: JsonSchema) => typeSchema(item, reference, json)), additionalItems: false } : {};
  const kept = Object.fromEntries(Object.entries(rest).filter(([key, value]) => !isTypeless(key, value) && !(Array.isArray(prefixItems) && key === "items")));
  // A kept object's unknown keys: `[k: string]: unknown`, whatever `additional` says, since TypeScript
  // requires every declared property to be assignable to an index signature's type.
  if (schema["x-treaty-unknown-fields"] === "keep") kept["additionalProperties"] = true;
  // A negative number is no type where json-schema-to-typescript writes it before `[]` (`-1[]`).
  const only = Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : schema.const;
  if (typeof only === "number" && only < 0) kept["tsType"] = `(${JSON.stringify(only)})`;
  return flagRequired(
    inheritedOptional({
      ...(name === undefined ? {} : reference(name)),
      ...mapSubschemas(kept, (subschema) => typeSchema(subschema, reference, json)),
      ...tuple,
    }),
  );
};

// Members TypeScript's `Object` declares: an object literal without an optional property of such a
// name still has the inherited member, which TypeScript compares with the property's type.
const OBJECT_MEMBERS = ["constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"];

/**
 * An optional property named like a member of `Object` (`toString?: boolean`) typed as what reading
 * it gives: the field's value, or the member every object inherits where the field is absent.
 * Typed as the field alone, no value lacking it was assignable, and `check` claimed a boolean
 * where the value held a function.
 */
const inheritedOptional = (schema: JsonSchema): JsonSchema => {
  const { properties } = schema;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return schema;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = OBJECT_MEMBERS.filter((name) => Object.hasOwn(properties, name) && !required.has(name));
  if (names.length === 0) return schema;
  const widened = { ...(properties as Record<string, JsonSchema>) };
  for (const name of names) widened[name] = { anyOf: [widened[name]!, { tsType: `Object[${JSON.stringify(name)}]` }] };
  return { ...schema, properties: widened };
};

/**
 * An object's required properties flagged on each (draft 3's `required: true`, which
 * json-schema-to-typescript reads first) and left out of its `required` list: the list is searched
 * once per property, so a wide object cost time quadratic in its width. A property that is an
 * object itself, or has a `required` of its own, stays listed (there the keyword means its keys).
 */
const flagRequired = (schema: JsonSchema): JsonSchema => {
  const { properties, required } = schema;
  if (!Array.isArray(required) || required.length < 2 || typeof properties !== "object" || properties === null) return schema;
  const listed: string[] = [];
  const flagged: Record<string, JsonSchema> = { ...properties };
  for (const key of required as string[]) {
    const property = Object.hasOwn(flagged, key) ? flagged[key] : undefined;
    const objectLike = key === "__proto__" || property === undefined || "required" in property || property.type === "object" || (Array.isArray(property.type) && property.type.includes("object"));
    if (objectLike) listed.push(key);
    else flagged[key] = { ...property, required: true };
  }
  return { ...schema, properties: flagged, required: listed };
};

// Declarations by a hash of what json-schema-to-typescript is given: a contract's versions (and
// contracts alike) share most of their named types, each compiled once. Seeded from the cache
// directory, so a run whose types were all compiled before never loads json-schema-to-typescript.
// Bounded, since a wide root type's declaration runs to megabytes.
export const declarationMemo = createEmitterMemo(32 * 1024 * 1024);
const compiling = new Map<string, Promise<string>>();

/**
 * `name` declared as json-schema-to-typescript declares `schema`: printed here where
 * type-declaration.ts can (with its layout, when that is certain), else by the library.
 */
const compileOnce = (name: string, schema: JsonSchema): TypeDeclaration | Promise<string> => {
  const direct = declareType(name, schema);
  if (direct !== undefined) return direct;
  const json = JSON.stringify(schema);
  const hash = contentHash(`${name}\0${json}`);
  const known = declarationMemo.get(hash);
  if (known !== undefined) return Promise.resolve(known);
  let declaration = compiling.get(hash);
  if (declaration === undefined) {
    // json-schema-to-typescript calls `hasOwnProperty` on every object it is given: a property of that
    // name goes in under a stand-in no contract can hold (it holds the hash of the schema it is in).
    const standIn = `hasOwnProperty$${hash.slice(0, 16)}`;
    const given = json.includes('"hasOwnProperty"') ? renameKey(schema, "hasOwnProperty", standIn) : schema;
    declaration = import("json-schema-to-typescript").then(async ({ compile }) =>
      declaredAs(name, (await compile(given, name, COMPILE_OPTIONS)).replaceAll(standIn, "hasOwnProperty")),
    );
    compiling.set(hash, declaration);
    void declaration.then(
      (text) => {
        compiling.delete(hash);
        declarationMemo.add(hash, text);
      },
      () => compiling.delete(hash),
    );
  }
  return declaration;
};

/**
 * `text` declaring `name` itself: json-schema-to-typescript makes its own name of a title
 * (`A2aCardV1_0` → `A2ACardV1_0`, a letter after a digit upper-cased), while every other file,
 * and every reference here, uses treaty's. References are `tsType`s, so the declaration is the one
 * place its name appears.
 */
const declaredAs = (name: string, text: string): string => {
  let found = false;
  const renamed = text.replace(/^(export (?:interface|type) )([A-Za-z_$][\w$]*)/m, (whole, head: string, declared: string) => {
    found = true;
    return declared === name ? whole : `${head}${name}`;
  });
  // Never kept, nor written: a process whose Object.prototype had lost its `__proto__` accessor made it declare nothing.
  if (!found) throw new Error(`treaty bug: json-schema-to-typescript declared no type for ${name}`);
  return renamed;
};

/** `schema` with every property `from` (in `properties` and `required`) named `to`. */
const renameKey = (schema: JsonSchema, from: string, to: string): JsonSchema => {
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (typeof value !== "object" || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      let renamed = rename(inner);
      if (key === "properties" && typeof renamed === "object" && renamed !== null && Object.hasOwn(renamed, from)) {
        renamed = Object.fromEntries(Object.entries(renamed).map(([k, v]) => [k === from ? to : k, v]));
      } else if (key === "required" && Array.isArray(renamed)) renamed = renamed.map((k) => (k === from ? to : k));
      Object.defineProperty(copy, key, { value: renamed, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };
  return rename(schema) as JsonSchema;
};

/**
 * What `types.ts` of `version` declares, in order: each name with the schema json-schema-to-typescript
 * is given for it (references already `tsType`s). Importing what the references name into `file`.
 */
export const typeDeclarations = (project: Project, contract: Contract, version: ResolvedVersion, file: FileBuilder): [name: string, schema: JsonSchema][] => {
  const path = versionFilePath(contract.name, version.version, "types.ts");
  const document = buildSchemaDocument(project, contract, version);
  const ownRoot = rootTypeName(contract.name, version.version);
  const reference = (name: string): JsonSchema => {
    const def = document.defs.get(name);
    switch (def?.origin.kind) {
      case "local":
        return { tsType: name };
      case "root": {
        const { contract: other, version: otherVersion } = def.origin;
        if (name !== ownRoot)
          file.importType(moduleSpecifier(path, versionFilePath(other.name, otherVersion.version, "types.ts")), name);
        return { tsType: name };
      }
      case "contract":
        return typeSchema(def.schema, reference, json);
      default:
        throw new Error(`treaty bug: '${name}' is not reachable from ${contract.name}@${version.version}`);
    }
  };
  // A contract may name a type of its own JsonValue; the runtime's then comes in under a name no type can have.
  const jsonName = document.defs.has("JsonValue") ? "JsonValue_" : "JsonValue";
  const json = (): JsonSchema => {
    file.importType("treaty/runtime", jsonName === "JsonValue" ? jsonName : `JsonValue as ${jsonName}`);
    return { tsType: jsonName };
  };
  // typeSchema runs every time: its references add the file's imports.
  const declared = (name: string, schema: JsonSchema): [string, JsonSchema] => [name, { ...typeSchema(schema, reference, json), title: name }];
  return [declared(ownRoot, document.root), ...localDefOrder(document).map((name) => declared(name, document.defs.get(name)!.schema))];
};

/**
 * `types.ts`: the version's root interface, its named types as interfaces and enums as string-literal
 * unions, with JSDoc from descriptions. Each is compiled on its own, so names are exactly the def
 * names; other contracts' versions are imported from their own `types.ts`.
 */
export const emitTypes = async (
  project: Project,
  contract: Contract,
  version: ResolvedVersion,
): Promise<EmittedFile> => {
  const file = createFileBuilder(versionFilePath(contract.name, version.version, "types.ts"), contract.file);
  const declarations = await Promise.all(typeDeclarations(project, contract, version, file).map(([name, schema]) => compileOnce(name, schema)));
  // The declarations whose layout is known go to the formatter with it: prettier formats the rest.
  const laidOut = new Map<string, string>();
  for (const declaration of declarations) if (typeof declaration !== "string" && declaration.pretty !== undefined) laidOut.set(declaration.text, declaration.pretty);
  const body = declarations.map((declaration) => (typeof declaration === "string" ? declaration : declaration.text)).join("\n");
  return { ...file.render("types", { body }), ...(laidOut.size > 0 ? { laidOut } : {}) };
};

/** `schema` declared as `name` by json-schema-to-typescript itself, never printed here: the referee of type-declaration.ts. */
export const compileWithLibrary = async (name: string, schema: JsonSchema): Promise<string> => {
  const { compile } = await import("json-schema-to-typescript");
  return declaredAs(name, await compile(schema, name, COMPILE_OPTIONS));
};
