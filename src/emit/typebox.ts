import type { Contract, Project, ResolvedVersion } from "../ir/model.js";
import { recursiveTypes } from "../ir/recursion.js";
import { rootTypeName } from "../ir/names.js";
import { createFileBuilder, type EmittedFile } from "./file-builder.js";
import {
  buildSchemaDocument,
  isSchema,
  localDefOrder,
  moduleSpecifier,
  refName,
  versionFilePath,
  type JsonSchema,
} from "./json-schema.js";

/** The exported const holding a type's schema; the suffix keeps a type named `Type` off TypeBox's. */
export const schemaConstName = (typeName: string): string => `${typeName}Schema`;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// A literal key `__proto__` (even quoted) sets the prototype; a computed one defines a property.
/** An object literal's key for `key`: bare when it is an identifier, quoted otherwise. */
export const printKey = (key: string): string =>
  key === "__proto__" ? `["__proto__"]` : IDENTIFIER.test(key) ? key : JSON.stringify(key);

/** The builders of `treaty/typebox` generated schemas call beside TypeBox's `Type`. */
type TypeBoxHelper = "tupleOf" | "mapOf" | "jsonOf";

/** An object literal of `[key, code]` entries, on one line (prettier lays it out). */
export const printObject = (entries: readonly (readonly [string, string])[]): string =>
  entries.length === 0 ? "{}" : `{ ${entries.map(([key, code]) => `${printKey(key)}: ${code}`).join(", ")} }`;

const call = (builder: string, ...args: readonly (string | undefined)[]): string =>
  `Type.${builder}(${args.filter((arg) => arg !== undefined).join(", ")})`;

/**
 * TypeBox code for an emitted JSON Schema, keyword for keyword, so both accept the same values:
 * each builder takes its structural keywords as arguments and every other keyword verbatim as an
 * option. `reference` prints the code for a `$ref` to a def.
 */
export const printTypeBox = (schema: JsonSchema, reference: (name: string) => string, use: (helper: TypeBoxHelper) => void = () => {}): string => {
  /** A builder of treaty/typebox: the schema as emitted, typed as the generated types say (`Static`). */
  const helper = (name: TypeBoxHelper, ...args: readonly (string | undefined)[]): string => {
    use(name);
    return `${name}(${args.filter((arg) => arg !== undefined).join(", ")})`;
  };
  const options = (rest: JsonSchema): string | undefined => {
    const entries = Object.entries(rest).map(
      ([key, value]) =>
        [key, key === "additionalProperties" && isSchema(value) ? print(value) : JSON.stringify(value)] as const,
    );
    return entries.length > 0 ? printObject(entries) : undefined;
  };
  const print = (node: JsonSchema): string => {
    const name = refName(node);
    if (name !== undefined) {
      const { $ref: _, ...rest } = node;
      const target = reference(name);
      const annotations = options(rest);
      return annotations === undefined ? target : call("With", target, annotations);
    }
    if ("const" in node) {
      const { const: value, ...rest } = node;
      // TypeBox's literals are strings, numbers and booleans; `Type.Null` accepts what `const: null` does.
      return value === null ? call("Null", options(rest)) : call("Literal", JSON.stringify(value), options(rest));
    }
    if (Array.isArray(node.enum)) {
      // Enum values are all strings, so `type: "string"` adds nothing to `enum`.
      const { enum: values, type: _, ...rest } = node;
      return call("Enum", JSON.stringify(values), options(rest));
    }
    if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf)) {
      // A union's variants are disjoint on their tag, so `anyOf` accepts what `oneOf` does.
      const { anyOf, oneOf, ...rest } = node;
      const members = ((anyOf ?? oneOf) as JsonSchema[]).map(print);
      return call("Union", `[${members.join(", ")}]`, options(rest));
    }
    if ("x-treaty-json" in node) return helper("jsonOf", options(node));
    const { type, ...rest } = node;
    switch (type) {
      case "string":
        return call("String", options(rest));
      case "integer":
        return call("Integer", options(rest));
      case "number":
        return call("Number", options(rest));
      case "boolean":
        return call("Boolean", options(rest));
      case "null":
        return call("Null", options(rest));
      case "array": {
        // TypeBox's Tuple writes draft-07 `items: [...]`: a tuple keeps 2020-12's `prefixItems` as emitted.
        if (Array.isArray(rest.prefixItems)) {
          const { prefixItems, ...tupleRest } = rest;
          const items = (prefixItems as JsonSchema[]).map(print).join(", ");
          return helper("tupleOf", `[${items}]`, options(tupleRest));
        }
        const { items, ...arrayRest } = rest;
        return call("Array", print(items as JsonSchema), options(arrayRest));
      }
      case "object": {
        const {
          properties = {},
          required = [],
          ...objectRest
        } = rest as {
          properties?: Record<string, JsonSchema>;
          required?: readonly string[];
        };
        const { additionalProperties: additional, ...mapRest } = objectRest as JsonSchema;
        // A map: any keys, each value of one schema.
        if (Object.keys(properties).length === 0 && required.length === 0 && isSchema(additional)) return helper("mapOf", print(additional), options(mapRest));
        const requires = new Set(required); // a wide object's fields asked of a list were quadratic
        const members = Object.entries(properties).map(
          ([key, property]) =>
            [key, requires.has(key) ? print(property) : `Type.Optional(${print(property)})`] as const,
        );
        return call("Object", printObject(members), options(objectRest));
      }
    }
    throw new Error(`treaty bug: no TypeBox builder for schema ${JSON.stringify(node)}`);
  };
  return print(schema);
};

/**
 * `schema.ts`: the version's schema as TypeBox values (built at import, never compiled there).
 * The contract's enums and types are exported consts declared before use; other contracts'
 * versions are imported from their own `schema.ts`.
 */
export const emitTypeBox = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile => {
  const path = versionFilePath(contract.name, version.version, "schema.ts");
  const file = createFileBuilder(path, contract.file);
  const document = buildSchemaDocument(project, contract, version);
  const recursive = recursiveTypes(version);
  // Inside the group of recursive types, one refers to another by name (TypeBox's Cyclic).
  let inCyclic = false;
  const reference = (name: string): string => {
    const def = document.defs.get(name);
    switch (def?.origin.kind) {
      case "local":
        return inCyclic && recursive.has(name) ? `Type.Ref(${JSON.stringify(name)})` : schemaConstName(name);
      case "root": {
        const { contract: other, version: otherVersion } = def.origin;
        // A const cannot be built from itself: the checker should reject such contracts before emit.
        if (other === contract && otherVersion === version) {
          throw new Error(`${name} contains itself through a contract reference, which TypeBox consts cannot express`);
        }
        file.importValue(
          moduleSpecifier(path, versionFilePath(other.name, otherVersion.version, "schema.ts")),
          schemaConstName(name),
        );
        return schemaConstName(name);
      }
      case "contract":
        return printTypeBox(def.schema, reference, use);
      default:
        throw new Error(`treaty bug: '${name}' is not reachable from ${contract.name}@${version.version}`);
    }
  };
  const { $comment: _comment, $schema: _schema, ...root } = document.root;
  const helpers = new Set<TypeBoxHelper>();
  const use = (name: TypeBoxHelper): void => void helpers.add(name);
  const declare = (name: string, schema: JsonSchema): string =>
    `export const ${schemaConstName(name)} = ${printTypeBox(schema, reference, use)};`;
  /** Recursive types: one `$defs` object whose members refer to each other by name, and an export per type selecting it. */
  const declareCyclic = (names: readonly string[]): string[] => {
    inCyclic = true;
    const defs = printObject(names.map((name) => [name, printTypeBox(document.defs.get(name)!.schema, reference, use)]));
    inCyclic = false;
    const group = `${rootTypeName(contract.name, version.version)}Recursive`;
    return [`const ${group} = ${defs};`, ...names.map((name) => `export const ${schemaConstName(name)} = Type.Cyclic(${group}, ${JSON.stringify(name)});`)];
  };
  const order = localDefOrder(document);
  const cyclic = order.filter((name) => recursive.has(name));
  // Where the first recursive type falls in dependency order, every type it needs is declared and
  // none that needs a recursive one is yet: the whole group goes there.
  const declarations = [
    ...order.flatMap((name) => (!recursive.has(name) ? [declare(name, document.defs.get(name)!.schema)] : name === cyclic[0] ? declareCyclic(cyclic) : [])),
    declare(rootTypeName(contract.name, version.version), root),
  ];
  file.importValue("treaty/typebox", "Type");
  for (const name of [...helpers].sort()) file.importValue("treaty/typebox", name);
  return file.render("schema", { declarations });
};
