import type { Contract, Field, Project, ResolvedVersion, TypeNode } from "../ir/model.js";
import { rootFields } from "../ir/envelope.js";
import { rootTypeName, versionsOfMajor } from "../ir/names.js";
import { objectPolicy } from "../ir/open-objects.js";
import { createFileBuilder, type EmittedFile } from "./file-builder.js";
import { moduleSpecifier, versionFilePath } from "./json-schema.js";
import { printObject } from "./typebox.js";
import { isInheritedKey } from "./validator-code.js";

/** The exported const holding a version's shape. */
export const shapeConstName = (contract: string, version: string): string => `${rootTypeName(contract, version)}Shape`;

const lit = (value: string): string => JSON.stringify(value);

/**
 * `<contract>/<vX_Y>/shape.ts`: what redaction and re-ask messages need of the version (the
 * runtime's `VersionShape`): fields with their sensitivity, list items, map values, union variants
 * by tag, named types and enums by name, enum values with their meanings. Other contracts'
 * versions are imported from their own `shape.ts`.
 */
export const emitShape = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile => {
  const path = versionFilePath(contract.name, version.version, "shape.ts");
  const file = createFileBuilder(path, contract.file);

  const node = (type: TypeNode): [string, string][] => {
    switch (type.kind) {
      case "string":
      case "timestamp":
      case "ref":
        return [["kind", lit("string")]];
      case "int":
      case "number":
        return [["kind", lit("number")]];
      case "bool":
        return [["kind", lit("boolean")]];
      case "const":
        return [["kind", lit(type.value === null ? "null" : typeof type.value)]];
      case "enum":
      case "named":
        return [["kind", lit(type.kind)], ["name", lit(type.name)]];
      case "list":
        // maxItems bounds what a record keeps of an oversized list (redact.ts).
        return [["kind", lit("list")], ["of", printObject(node(type.of))], ...(type.maxItems === undefined ? [] : [["maxItems", String(type.maxItems)] as [string, string]])];
      case "map":
        // Keys are masked in paths and records unless the contract declares them names (redact.ts, reask.ts).
        return [["kind", lit("map")], ["of", printObject(node(type.of))], ...(type.keysVisible ? [["keysVisible", "true"] as [string, string]] : [])];
      case "json":
        // Its bounds: a record keeps a json value only where the validator would (redact.ts).
        return [
          ["kind", lit("json")],
          ...(type.maxDepth === undefined ? [] : [["maxDepth", String(type.maxDepth)] as [string, string]]),
          ...(type.maxBytes === undefined ? [] : [["maxBytes", String(type.maxBytes)] as [string, string]]),
        ];
      case "tuple":
        return [["kind", lit("tuple")], ["items", `[${type.items.map((item) => printObject(node(item))).join(", ")}]`]];
      case "object":
        return [["kind", lit("object")], ["fields", fields(type.fields)]];
      case "union":
        return [
          ["kind", lit("union")],
          ["tag", lit(type.tag)],
          ["variants", printObject(type.variants.map((v) => [v.value, printObject(node(v.type))]))],
        ];
      case "oneOf":
        return [["kind", lit("oneOf")], ["variants", `[${type.variants.map((v) => printObject(node(v.type))).join(", ")}]`]];
      case "contract":
        return [["kind", lit("contract")], ["versions", printObject(contractVersions(type.contract, type.major))]];
    }
  };

  const contractVersions = (name: string, major: number): [string, string][] => {
    const target = project.contracts.find((c) => c.name === name);
    if (!target) throw new Error(`treaty bug: contract ${name} is not in the project`);
    return versionsOfMajor(target, major).map((v) => {
      const shape = shapeConstName(name, v.version);
      file.importValue(moduleSpecifier(path, versionFilePath(name, v.version, "shape.ts")), shape);
      return [v.version, shape];
    });
  };

  const field = (f: Field): [string, string] => {
    const entries = node(f.type);
    if (f.sensitivity) entries.push(["sensitivity", lit(f.sensitivity)]);
    // TypeScript types an object literal's `constructor` or `toString` by Object's own member, not
    // by the index signature, so their literal kinds would widen to string.
    return [f.name, isInheritedKey(f.name) ? `${printObject(entries)} as const` : printObject(entries)];
  };
  const fields = (list: readonly Field[]): string => printObject(list.map(field));

  file.importType("treaty/runtime", "VersionShape");
  const withFallbacks = (v: ResolvedVersion): [string, string][] => {
    const fallbacks = [...v.enums.values()].flatMap((e) => (e.fallback === undefined ? [] : [[e.name, lit(e.fallback)] as [string, string]]));
    return fallbacks.length > 0 ? [["fallbacks", printObject(fallbacks)]] : [];
  };
  const shape = printObject([
    ["root", fields(rootFields(contract, version))],
    ["types", printObject([...version.types.values()].map((t) => [t.name, fields(t.fields)]))],
    ["enums", printObject([...version.enums.values()].map((e) => [e.name, printObject(e.values.map((v) => [v.name, lit(v.meaning)]))]))],
    ...withFallbacks(version),
    ...(isPlain(contract, version) ? [["plain", "true"] as [string, string]] : []),
  ]);
  return file.render("shape", {
    label: `${contract.name} ${version.version}`,
    name: shapeConstName(contract.name, version.version),
    shape,
  });
};

/**
 * Whether every path the version's validator reports names declared fields and list or tuple
 * items only, but for an unknown key (the last segment of an `unknown` issue): no map, json value,
 * union or other contract in it, and no object that keeps its unknown keys (their values are
 * checked, so issues point below them). The runtime then masks a path without walking the shape.
 */
const isPlain = (contract: Contract, version: ResolvedVersion): boolean => {
  const keeps = (object?: Parameters<typeof objectPolicy>[1]): boolean => objectPolicy(contract, object).unknownFields === "keep";
  const plainType = (type: TypeNode): boolean => {
    switch (type.kind) {
      case "map":
      case "json":
      case "union":
      case "oneOf":
      case "contract":
        return false;
      case "object":
        return !keeps(type) && type.fields.every((f) => plainType(f.type));
      case "list":
        return plainType(type.of);
      case "tuple":
        return type.items.every(plainType);
      default:
        return true; // scalars, enums, named types (each checked on its own below)
    }
  };
  return !keeps() && version.fields.every((f) => plainType(f.type)) && [...version.types.values()].every((t) => !keeps(t) && t.fields.every((f) => plainType(f.type)));
};
