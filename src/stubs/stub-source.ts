// What a new stub looks like in the hand-written adapters file: a typed signature, a doc comment
// saying what it must do, and a body that throws until someone writes it.
import type { ContractAdapters, Stub } from "../adapt/model.js";
import { rootTypeName, versionId } from "../ir/names.js";

/** Namespace names the stubs file imports generated types and the runtime under. */
export const GENERATED = "generated";
export const RUNTIME = "treaty";

/** The first lines of a new stubs file. */
export const stubsFileHeader = (adapters: ContractAdapters): string =>
  [
    `// Hand-written adapters for ${adapters.contract.name} (${adapters.contract.file}).`,
    "// `treaty generate` adds a stub here when a change needs code it cannot derive, and never changes",
    "// code that is already here. Each stub throws until it is written; its doc comment says what it must do.",
    `import type * as ${GENERATED} from ${JSON.stringify(adapters.layout.toGenerated)};`,
    `import * as ${RUNTIME} from "treaty/runtime";`,
    "",
  ].join("\n");

const rootType = (adapters: ContractAdapters, version: string): string =>
  `${GENERATED}.${versionId(version)}.${rootTypeName(adapters.contract.name, version)}`;

const fieldType = (adapters: ContractAdapters, version: string, path: readonly string[]): string =>
  `${RUNTIME}.FieldAt<${rootType(adapters, version)}, ${JSON.stringify(path.join("."))}>`;

const notWritten = (adapters: ContractAdapters, name: string): string =>
  `throw new ${RUNTIME}.AdapterNotImplemented(${JSON.stringify(adapters.contract.name)}, ${JSON.stringify(name)});`;

const docComment = (lines: readonly string[]): string => ["/**", ...lines.map((l) => (l === "" ? " *" : ` * ${l}`)), " */"].join("\n");

const fn = (adapters: ContractAdapters, stub: Stub, parameters: string, returns: string): string =>
  [
    docComment([`${adapters.contract.name} ${stub.source} → ${stub.target}: ${stub.summary}.`]),
    `export function ${stub.name}(${parameters}): ${returns} {`,
    `  ${notWritten(adapters, stub.name)}`,
    "}",
  ].join("\n");

/** The source text of `stub`: a function, or for `custom` changes a constant with both directions. */
export const stubSource = (adapters: ContractAdapters, stub: Stub): string => {
  switch (stub.kind) {
    case "fill":
      return fn(adapters, stub, `source: ${rootType(adapters, stub.source)}`, fieldType(adapters, stub.target, stub.path));
    case "convert":
      return fn(
        adapters,
        stub,
        `value: ${fieldType(adapters, stub.source, stub.sourcePath)}, source: ${rootType(adapters, stub.source)}`,
        fieldType(adapters, stub.target, stub.path),
      );
    case "enum":
      return fn(adapters, stub, `value: ${stub.values.map((v) => JSON.stringify(v)).join(" | ")}`, `${GENERATED}.${versionId(stub.target)}.${stub.enum}`);
    case "custom":
      return [
        docComment([
          `${adapters.contract.name} ${stub.source} ⇄ ${stub.target}, what the \`custom\` change${stub.descriptions.length > 1 ? "s say" : " says"}:`,
          ...stub.descriptions.map((d) => `- ${d}`),
          "",
          "`draft` is what treaty derived from the version's other changes; return the finished value.",
          ...(stub.unconverted.length > 0
            ? [`It holds ${stub.unconverted.map((p) => `\`${p}\``).join(", ")} as the source version has ${stub.unconverted.length > 1 ? "them" : "it"}, unconverted: convert ${stub.unconverted.length > 1 ? "them" : "it"} in both directions.`]
            : []),
          "treaty names no dropped fields for this step (this code decides what carries over): push into",
          "`log.dropped` each value it does not carry over, such as a removed field it leaves behind.",
        ]),
        `export const ${stub.name}: ${RUNTIME}.CustomStep<${rootType(adapters, stub.source)}, ${rootType(adapters, stub.target)}> = {`,
        ...(["upgrade", "downgrade"] as const).flatMap((direction) => [
          `  ${direction}(source, draft, log) {`,
          `    ${notWritten(adapters, `${stub.name}.${direction}`)}`,
          "  },",
        ]),
        "};",
      ].join("\n");
  }
};
