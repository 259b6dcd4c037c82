// The README against what exists: the IDL reference names every key of idl.schema.json and shows
// each in a yaml example, the diagnostics and issue tables match the code tables, the CLI and
// config references cover every command, flag and setting, and every full contract in a ```yaml
// block validates against the IDL schema, compiles without diagnostics and behaves as its examples say.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { Ajv } from "ajv/dist/ajv.js";
import ajvFormats from "ajv-formats";
import ts from "typescript";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { CONFIG_KEYS, PACKAGE_KEYS } from "../src/config/config.js";
import { DIAGNOSTIC_CODES } from "../src/diagnostics/codes.js";
import { formatDiagnostic } from "../src/diagnostics/diagnostic.js";
import { contractDir, versionId } from "../src/ir/names.js";
import { generate } from "../src/pipeline.js";
import type { Issue } from "../src/runtime/index.js";
import { EVENT_FIELDS, STORE_ERRORS } from "../src/store/index.js";

const ROOT = join(import.meta.dirname, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const IDL_SCHEMA = JSON.parse(readFileSync(join(ROOT, "idl/idl.schema.json"), "utf8")) as IdlSchema;

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  enum?: unknown[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  required?: string[];
  [key: string]: unknown;
}
interface IdlSchema extends SchemaNode {
  definitions: Record<string, SchemaNode>;
}

/** The text of `## title` (or `### title` at `level` 3) up to the next heading of its level or above. */
const section = (title: string, level = 2): string => {
  const heading = `\n${"#".repeat(level)} ${title}\n`;
  const start = README.indexOf(heading);
  if (start < 0) throw new Error(`README has no section '${heading.trim()}'`);
  const next = new RegExp(`\n#{1,${level}} `, "g");
  next.lastIndex = start + 1;
  const end = next.exec(README)?.index;
  return README.slice(start, end);
};

/** Fenced blocks of `lang`, also those indented inside list items (dedented). */
const fencedBlocks = (text: string, lang: string): string[] =>
  [...text.matchAll(new RegExp("^( *)```" + lang + "\\n([\\s\\S]*?)^\\1```", "gm"))].map(([, indent, body]) =>
    body!.split("\n").map((line) => line.slice(indent!.length)).join("\n"),
  );

/** Inline code spans outside fenced blocks: what the prose and tables explain, not what examples use. */
const inlineCode = (text: string): string[] =>
  [...text.replace(/^( *)```[\s\S]*?^\1```/gm, "").matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

const mentions = (spans: readonly string[], name: string): boolean => {
  const token = new RegExp(`(^|[^A-Za-z0-9_-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^A-Za-z0-9_-])`);
  return spans.some((span) => token.test(span));
};

const def = (name: string): SchemaNode => {
  const node = IDL_SCHEMA.definitions[name];
  if (!node) throw new Error(`idl.schema.json has no definition '${name}'`);
  return node;
};
const keys = (node: SchemaNode): string[] => Object.keys(node.properties ?? {});
const enumOf = (node: SchemaNode): string[] => (node.enum ?? []).map(String);

/** The `expect` of an invalid example: `{ path, code }`. */
const expectNode = (): SchemaNode => (def("example").oneOf ?? []).find((e) => e.properties?.["expect"])!.properties!["expect"]!;

/** Every name the IDL schema defines, by what it is. */
const schemaNames = (): Record<string, string[]> => {
  const rule = def("rule").oneOf ?? [];
  return {
    "top-level key": keys(IDL_SCHEMA),
    "enum key": keys(def("enumDef")),
    "named type key": keys(def("namedType")),
    "version key": keys(def("versionDef")),
    "field key": keys(def("fieldMapping")),
    "deprecated key": keys(def("field.deprecated")),
    // The keywords; `ref<scheme>`, type names and `other.contract@MAJOR` are patterns, named in its description.
    "type name": [...enumOf(def("typeExpr").anyOf![0]!), "ref<scheme>", "other.contract@MAJOR"],
    "constraint key": Object.keys(IDL_SCHEMA.definitions).filter((n) => n.startsWith("constraint.")).map((n) => n.slice("constraint.".length)),
    format: enumOf(def("constraint.format")),
    "change op": keys(def("change")),
    "enum change key": keys(def("change.enum")),
    "rule kind": rule.map((r) => r.required![0]!),
    "requires key": keys(rule.find((r) => r.required![0] === "requires")!.properties!["requires"]!),
    "example key": [...new Set((def("example").oneOf ?? []).flatMap(keys))],
    "expect key": keys(expectNode()),
    "value of kind, unknown_fields, compatibility, envelope": ["kind", "unknown_fields", "compatibility", "envelope"].flatMap((k) => enumOf(IDL_SCHEMA.properties![k]!)),
    "value of status, sensitivity": [...enumOf(def("versionDef").properties!["status"]!), ...enumOf(def("field.sensitivity"))],
  };
};

const issueCodes = (): string[] => enumOf(expectNode().properties!["code"]!);

describe("README: IDL reference covers idl.schema.json", () => {
  const spans = inlineCode(section("IDL reference"));
  for (const [what, names] of Object.entries(schemaNames())) {
    it(`names every ${what}`, () => {
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((name) => !mentions(spans, name))).toEqual([]);
    });
  }
});

/** Every mapping key and every scalar value in the yaml blocks of `text`, at any depth. */
const yamlVocabulary = (text: string): { keys: Set<string>; values: Set<string> } => {
  const keys = new Set<string>();
  const values = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        keys.add(key);
        walk(value);
      }
    } else values.add(String(node));
  };
  fencedBlocks(text, "yaml").forEach((block) => walk(parse(block)));
  return { keys, values };
};

/** Names that are patterns, matched by what an example of them looks like. */
const PATTERN_EXAMPLES: Record<string, RegExp> = { "ref<scheme>": /^ref<[a-z][a-z0-9+.-]*>$/, "other.contract@MAJOR": /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+@[0-9]+$/ };

describe("README: IDL reference shows every name in a yaml example", () => {
  const { keys, values } = yamlVocabulary(section("IDL reference"));
  for (const [what, names] of Object.entries(schemaNames())) {
    // Keys are shown as keys; type names, formats and enumerated values as values.
    const isKey = what.endsWith(" key") || what === "change op" || what === "rule kind";
    it(`uses every ${what} in a yaml block`, () => {
      const shown = (name: string): boolean =>
        isKey ? keys.has(name) : PATTERN_EXAMPLES[name] ? [...values].some((v) => PATTERN_EXAMPLES[name]!.test(v)) : values.has(name);
      expect(names.filter((name) => !shown(name))).toEqual([]);
    });
  }
});

describe("README: code tables", () => {
  const tableCodes = (title: string): string[] =>
    [...section(title).matchAll(/^\| `([^`]+)`(?:, `([^`]+)`)*/gm)].flatMap((m) => [...m[0].matchAll(/`([^`]+)`/g)].map((c) => c[1]!));

  const difference = (listed: readonly string[], known: readonly string[]) => ({
    missing: known.filter((code) => !listed.includes(code)),
    unknown: listed.filter((code) => !known.includes(code)),
  });

  it("lists every diagnostic code, and no other", () => {
    expect(difference(tableCodes("Diagnostics"), Object.keys(DIAGNOSTIC_CODES))).toEqual({ missing: [], unknown: [] });
  });

  it("lists every issue code errors() produces, and no other", () => {
    expect(difference(tableCodes("Validation issue codes"), issueCodes())).toEqual({ missing: [], unknown: [] });
  });

  it("lists the store entries, every event field and every store error with its retryability, and no other", () => {
    const known = ["treaty/store", "treaty/store-sqlite", ...EVENT_FIELDS, ...Object.keys(STORE_ERRORS)];
    expect(difference(tableCodes("Event store"), known)).toEqual({ missing: [], unknown: [] });
    for (const [code, { retryable }] of Object.entries(STORE_ERRORS)) expect(section("Event store")).toContain(`| \`${code}\` | ${retryable ? "yes" : "no"} |`);
  });
});

describe("README: quick start, CLI and config", () => {
  it("quick start is `npm ci && npm run codegen` then `npm test`", () => {
    const [block] = fencedBlocks(section("Quick start"), "sh");
    expect(block?.trim().split("\n")).toEqual(["npm ci && npm run codegen", "npm test"]);
  });

  it("documents every command and flag of --help", async () => {
    let help = "";
    await runCli(["--help"], { cwd: ROOT, stdout: (t) => (help += t), stderr: () => {} });
    const cli = section("CLI reference");
    const words = [...new Set([...help.matchAll(/treaty (\w+)|(--\w+)/g)].map((m) => m[1] ?? m[2]!))];
    expect(words.length).toBeGreaterThan(4);
    expect(words.filter((w) => !cli.includes(w))).toEqual([]);
  });

  it("documents every config key", () => {
    const keys = [...CONFIG_KEYS, ...PACKAGE_KEYS.map((key) => `package.${key}`)];
    const spans = inlineCode(section("Configuration"));
    expect(keys.filter((key) => !mentions(spans, key))).toEqual([]);
  });

  it("the editor $schema path resolves to the schema the package ships", () => {
    const path = /\$schema=(\S+)/.exec(README)?.[1];
    expect(path).toBeDefined();
    expect(posix.join("/repo/idl/domain", path!)).toBe("/repo/node_modules/treaty/idl/idl.schema.json");
    const files = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] }).files;
    expect(files.some((f) => f === "idl" || f === "idl/idl.schema.json")).toBe(true);
  });
});

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ajvFormats.default;
const createIdlValidator = () => {
  // As in idl-schema.test.ts: strictRequired off for the type-dependent `required` lists.
  const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(IDL_SCHEMA);
};

interface Contract {
  contract: string;
  versions: Record<string, unknown>;
  examples?: { version: string; valid?: unknown; invalid?: unknown; expect?: { path: string; code: string } }[];
}

const yamlFilesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? yamlFilesUnder(path) : entry.name.endsWith(".yaml") ? [path] : [];
  });

describe("README: yaml blocks", () => {
  const blocks = fencedBlocks(README, "yaml");
  const parsed = blocks.map((text) => ({ text, doc: parse(text) as unknown }));
  const contracts = parsed.filter(
    (b): b is { text: string; doc: Contract } => typeof b.doc === "object" && b.doc !== null && !Array.isArray(b.doc) && "contract" in b.doc,
  );
  const validate = createIdlValidator();
  const temps: string[] = [];
  afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("every yaml block parses, and several are full contracts", () => {
    expect(blocks.length).toBeGreaterThan(contracts.length);
    expect(contracts.length).toBeGreaterThanOrEqual(3);
  });

  it.each(contracts.map((c) => [c.doc.contract, c] as const))("%s validates against idl.schema.json", (_name, { doc }) => {
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each(contracts.map((c) => [c.doc.contract, c] as const))("%s compiles and its examples hold", async (name, { text, doc }) => {
    // Beside the repo's own contracts, so a README contract may reference them (operation.error@1).
    const root = mkdtempSync(join(tmpdir(), "treaty-readme-"));
    temps.push(root);
    // Contracts only: the repo's agents (and their hand-written bodies) are not the README's.
    for (const file of yamlFilesUnder(join(ROOT, "idl")).filter((f) => !f.endsWith(".agent.yaml"))) {
      const other = readFileSync(file, "utf8");
      if ((parse(other) as Contract).contract === name) continue;
      const target = join(root, "idl", file.slice(join(ROOT, "idl").length));
      mkdirSync(join(target, ".."), { recursive: true });
      writeFileSync(target, other);
    }
    const file = join(root, "idl", name.split(".")[0]!, `${name}.yaml`);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, text);

    const out = join(root, "generated");
    const result = await generate({ root, idlDir: join(root, "idl"), outDir: out, check: false });
    // Only the README contract's own findings count.
    const own = result.diagnostics.filter((d) => d.loc?.file.endsWith(`/${name}.yaml`));
    expect(own.map(formatDiagnostic)).toEqual([]);
    expect(result.report).toBeDefined();

    for (const example of doc.examples ?? []) {
      const validator = (await import(join(out, contractDir(name), versionId(example.version), "validator.ts"))) as {
        check(value: unknown): boolean;
        errors(value: unknown): Issue[];
      };
      if ("valid" in example) {
        expect(validator.errors(example.valid)).toEqual([]);
        expect(validator.check(example.valid)).toBe(true);
      } else {
        expect(validator.check(example.invalid)).toBe(false);
        expect(validator.errors(example.invalid)).toContainEqual(expect.objectContaining(example.expect));
      }
    }
  });
});

/** What the README's API examples take from the host around them: its inputs and callbacks. */
const HOST = `
declare const llmText: string;
declare const piiKey: string;
declare function reject(error: unknown): void;
declare function send(value: unknown): void;
declare function use(value: unknown): void;
declare function route(errorClass: string, retryable: boolean): void;
declare function log(event: unknown): void;
declare function store(record: unknown): void;
declare function askModel(attempt: number, reask: string | undefined): Promise<string>;
declare const input: unknown;
declare const shape: import("treaty/runtime").VersionShape;
declare const tokenId: string;
declare const model: import("treaty/runtime").AnthropicModel;
declare function askHuman(agent: string, input: unknown): Promise<boolean>;
type JsonValue = import("treaty/runtime").JsonValue;
`;

describe("README: API examples compile", () => {
  // The complete examples (those that import) of the sections on the generated registry, the runtime, the event store, the agent pipeline and agents as tools.
  const examples = [section("Adapters and the canonical model", 3), section("Runtime"), section("Event store"), section("The pipeline at run time", 3), section("Agents as tools", 3)].flatMap((text) => fencedBlocks(text, "ts")).filter((block) => /^import /m.test(block));

  it("against the generated package, treaty/runtime and the stores, under strict", () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    // Beside package.json (an ES module), so `./generated/index.js` and top-level await resolve as in a producer repo.
    const files = new Map(examples.map((block, i) => [join(ROOT, `readme-example-${i}.ts`), `${HOST}\n${block}`]));
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts"],
      types: [],
      skipLibCheck: true,
      paths: {
        "treaty/runtime": [join(ROOT, "src/runtime/index.ts")],
        "treaty/typebox": [join(ROOT, "src/runtime/typebox.ts")],
        "treaty/store": [join(ROOT, "src/store/index.ts")],
        "treaty/store-sqlite": [join(ROOT, "src/store-sqlite/index.ts")],
        "treaty/mcp": [join(ROOT, "src/mcp/index.ts")],
      },
    };
    const host = ts.createCompilerHost(options);
    const { fileExists, readFile, getSourceFile } = host;
    host.fileExists = (file) => files.has(file) || fileExists(file);
    host.readFile = (file) => files.get(file) ?? readFile(file);
    host.getSourceFile = (file, language, ...rest) => {
      const text = files.get(file);
      return text === undefined ? getSourceFile(file, language, ...rest) : ts.createSourceFile(file, text, language);
    };
    const program = ts.createProgram([...files.keys()], options, host);
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" }));
    expect(diagnostics).toEqual([]);
  });
});
