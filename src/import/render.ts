// An imported contract as the YAML a person would write: a header naming where it came from, short
// fields on one line, the rest in blocks, keys in the IDL's usual order.
import { Document, isScalar, visit, type YAMLMap } from "yaml";
import { TREATY_VERSION } from "../version.js";
import type { ImportedContract } from "./convert.js";
import type { SchemaSource } from "./source.js";

const DIALECT_NAMES: Record<SchemaSource["dialect"], string> = {
  "draft-07": "JSON Schema draft-07",
  "2020-12": "JSON Schema 2020-12",
  "openapi-3.0": "OpenAPI 3.0",
  "openapi-3.1": "OpenAPI 3.1",
};

/** A mapping of scalars that reads on one line (`name: { type: string, maxLength: 40 }` within about 80 columns). */
const fitsOnOneLine = (map: YAMLMap): boolean =>
  map.items.every((pair) => isScalar(pair.value)) &&
  map.items.reduce((width, pair) => width + String((pair.key as { value?: unknown }).value).length + JSON.stringify((pair.value as { value?: unknown }).value).length + 4, 0) <= 72;

/** `providers`: the LLM providers the contract fits, where that is fewer than all (see import.ts). */
export const renderContract = (contract: ImportedContract, source: SchemaSource, schemaPath: string | undefined, providers?: readonly string[]): string => {
  const body: Record<string, unknown> = { contract: contract.name };
  if (contract.description) body["description"] = contract.description;
  body["envelope"] = "none";
  body["unknown_fields"] = contract.unknownFields;
  if (providers) body["llm"] = { providers: [...providers] };
  else if (contract.recursive) body["llm"] = { providers: ["mcp"] };
  if (contract.enums.size > 0) body["enums"] = Object.fromEntries(contract.enums);
  if (contract.types.size > 0) body["types"] = Object.fromEntries(contract.types);
  body["versions"] = { "1.0": { fields: contract.fields } };
  const doc = new Document(body);
  const llm = (doc.contents as YAMLMap).items.find((pair) => isScalar(pair.key) && pair.key.value === "llm");
  if (llm) {
    (llm.key as { commentBefore?: string }).commentBefore = providers
      ? " The LLM projections this contract fits: the others' limits (nesting, enum sizes, recursion, request budgets) it crosses."
      : " Some named types here are recursive: of the LLM projections, only MCP's takes them ($defs).";
  }
  visit(doc, {
    Map: (_, map) => {
      if (fitsOnOneLine(map) && map.items.some((pair) => isScalar(pair.key) && pair.key.value === "type")) map.flow = true;
    },
  });
  // Keys that YAML would read as another type stay strings; a protocol's names that are no
  // identifiers (`$schema`, `io.example/x`) are quoted so they read as one name.
  visit(doc, {
    Scalar: (key, node) => {
      if (key === "key" && typeof node.value === "string" && (/^(\d+(\.\d+)?|true|false|null|yes|no|on|off|~)$/i.test(node.value) || /[^A-Za-z0-9_.-]/.test(node.value))) node.type = "QUOTE_DOUBLE";
    },
  });
  const header = [
    ...(schemaPath ? [`yaml-language-server: $schema=${schemaPath}`] : []),
    `Imported by treaty ${TREATY_VERSION} from ${source.file}${contract.pointer === "#" ? "" : contract.pointer} (${DIALECT_NAMES[source.dialect]}).`,
    "Before it ships: give it an owner, write each TODO(import) meaning (lint: placeholder-meaning),",
    "and settle what the import reported it could not express.",
  ];
  doc.commentBefore = header.map((line) => ` ${line}`).join("\n");
  // Descriptions as written: a multi-line one as a literal block, a long line unfolded.
  return doc.toString({ lineWidth: 0, blockQuote: "literal", flowCollectionPadding: true });
};
