// treaty's config: where it is read from, every bad setting located at file:line:col with a stable
// code, flags over settings, and the `package` setting that makes the output an npm package.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, findProjectRoot, loadConfig } from "../../src/config/config.js";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.js";
import { cli, tempProject } from "../support/temp-project.js";

const ROOT = join(import.meta.dirname, "../..");

const project = (files: Record<string, string> = {}): string => tempProject("config", files);

/** A project with idl/'s operation.error in `contracts/`. */
const withContracts = (files: Record<string, string>): string => {
  const root = project(files);
  cpSync(join(ROOT, "idl/errors/operation.error.yaml"), join(root, "contracts/operation.error.yaml"));
  return root;
};

const diagnostics = (files: Record<string, string>): string[] => loadConfig(project(files)).diagnostics.map(formatDiagnostic);

describe("loadConfig", () => {
  it("uses the defaults without a config", () => {
    expect(loadConfig(project({ "package.json": '{ "name": "x" }\n' }))).toEqual({ value: DEFAULT_CONFIG, diagnostics: [] });
  });

  it("reads treaty.config.json", () => {
    const root = project({ "treaty.config.json": '{ "idl": "contracts", "package": { "name": "@acme/c", "description": "Ours." } }\n' });
    expect(loadConfig(root)).toEqual({
      value: { idl: "contracts", out: "generated", file: "treaty.config.json", package: { name: "@acme/c", version: "0.0.0", description: "Ours." } },
      diagnostics: [],
    });
  });

  it("reads the treaty key of package.json", () => {
    const root = project({ "package.json": '{ "name": "x", "treaty": { "out": "src/gen", "package": { "name": "c", "version": "2.1.0" } } }\n' });
    expect(loadConfig(root).value).toEqual({ idl: "idl", out: "src/gen", file: "package.json", package: { name: "c", version: "2.1.0" } });
  });

  it("rejects settings in both places, at package.json's treaty key", () => {
    expect(diagnostics({ "treaty.config.json": "{}\n", "package.json": '{\n  "name": "x",\n  "treaty": {}\n}\n' })).toEqual([
      "package.json:3:3 - error config-conflict: treaty is configured both here and in treaty.config.json; keep one",
    ]);
  });

  it("locates each bad setting with a stable code", () => {
    const text = ['{', '  "idl": 3,', '  "outt": "gen",', '  "package": { "version": "one" }', '}', ''].join("\n");
    expect(diagnostics({ "treaty.config.json": text })).toEqual([
      "treaty.config.json:2:10 - error invalid-value: 'idl' in treaty.config.json must be a directory path (a string)",
      "treaty.config.json:3:3 - error unknown-key: unknown key 'outt' in treaty.config.json (did you mean 'out'?)",
      "treaty.config.json:4:3 - error missing-key: 'package' in treaty.config.json needs 'name'",
      "treaty.config.json:4:27 - error invalid-value: 'package.version' in treaty.config.json must be a semver version, e.g. 1.0.0",
    ]);
  });

  it("rejects a package name npm would not take", () => {
    expect(diagnostics({ "package.json": '{ "treaty": { "package": { "name": "My Contracts" } } }' })).toEqual([
      "package.json:1:36 - error invalid-value: 'package.name' in package.json 'treaty' must be an npm package name (lower case, e.g. @acme/contracts)",
    ]);
  });

  it("reports a config that does not parse, and one that is not an object", () => {
    expect(diagnostics({ "treaty.config.json": '{\n  "idl": "idl",\n  "idl": "x"\n}\n' })).toEqual([
      "treaty.config.json:3:3 - error duplicate-key: duplicate key 'idl'",
    ]);
    expect(diagnostics({ "treaty.config.json": "[]\n" })).toEqual(["treaty.config.json:1:1 - error invalid-value: treaty.config.json must be an object"]);
  });

  it("reports a treaty.config.json it cannot read, where it used the defaults in silence", () => {
    // A directory of that name (a mode-000 file is the same error for any user but root, whom permissions do not stop).
    const root = project({});
    mkdirSync(join(root, "treaty.config.json"));
    expect(loadConfig(root).diagnostics.map(formatDiagnostic)).toEqual(["treaty.config.json:1:1 - error read-failed: cannot read treaty.config.json: it is a directory, not a file"]);
    expect(loadConfig(root).value).toBeUndefined();
  });

  it("reports JSON syntax as JSON, at the first character JSON does not allow", () => {
    const at = (text: string): string[] => loadConfig(project({ "treaty.config.json": text })).diagnostics.map((d) => `${d.loc?.file}:${d.loc?.line}:${d.loc?.col} ${d.code}`);
    expect(at('{ "idl": "idl" \n')).toEqual(["treaty.config.json:2:1 json-syntax"]);
    // YAML reads each of these; JSON does not.
    expect(at('{\n  "idl": "a",\n  "out": "b",\n}\n')).toEqual(["treaty.config.json:4:1 json-syntax"]);
    expect(at('{\n  # ours\n  "idl": "a"\n}\n')).toEqual(["treaty.config.json:2:3 json-syntax"]);
    expect(at("{ idl: 'a' }")).toEqual(["treaty.config.json:1:3 json-syntax"]);
    expect(at('{ "idl": "a" } x')).toEqual(["treaty.config.json:1:16 json-syntax"]);
    expect(at('{ "idl": "a\\q" }')).toEqual(["treaty.config.json:1:12 json-syntax"]);
    expect(at('{ "idl": [1, 2,] }')).toEqual(["treaty.config.json:1:16 json-syntax"]);
    expect(at('{ "idl": -01 }')).toEqual(["treaty.config.json:1:12 json-syntax"]);
    expect(at("")).toEqual(["treaty.config.json:1:1 json-syntax"]);
    // Nesting deep enough to exhaust a recursive scan, or the YAML parser's stack, is a limit, not a crash.
    expect(at("[".repeat(100_000))).toEqual(["treaty.config.json:1:257 limit-exceeded"]);
    expect(at(`{ "idl": "a", "x": ${"[".repeat(1000)}${"]".repeat(1000)} }`)).toEqual(["treaty.config.json:1:275 limit-exceeded"]);
    expect(at('{ "idl": "a", "out": "b", "package": { "name": "c", "version": "1.0.0" } }')).toEqual([]);
    // A byte order mark, as some editors on Windows save one, is not a syntax error.
    expect(at('\uFEFF{ "idl": "a" }\n')).toEqual([]);
    expect(loadConfig(project({ "treaty.config.json": '\uFEFF{ "idl": "a" }\n' })).value?.idl).toBe("a");
    // package.json is npm's to report, but its treaty key is read only from JSON.
    expect(loadConfig(project({ "package.json": '{ "treaty": { "idl": "x" }, }' })).value).toEqual(DEFAULT_CONFIG);
  });
});

describe("the CLI reads the config", () => {
  it("generate and check take idl and out from it, and flags win over it", async () => {
    const root = withContracts({ "treaty.config.json": '{ "idl": "contracts", "out": "gen" }\n' });
    expect((await cli(["check"], root)).status).toBe(0);
    expect((await cli(["generate"], root)).status).toBe(0);
    expect(existsSync(join(root, "gen/operation.error/v1_0/validator.ts"))).toBe(true);
    expect((await cli(["generate", "--out", "elsewhere"], root)).status).toBe(0);
    expect(existsSync(join(root, "elsewhere/index.ts"))).toBe(true);
    const missing = await cli(["check", "--idl", "nowhere"], root);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("error read-failed: cannot read nowhere");
  });

  it("a bad config stops every command with its location, no stack trace", async () => {
    const root = withContracts({ "treaty.config.json": '{ "idl": "contracts", "paackage": {} }\n' });
    for (const command of ["generate", "check", "init"]) {
      const { status, stderr } = await cli([command], root);
      expect(status).toBe(1);
      expect(stderr).toBe("treaty.config.json:1:23 - error unknown-key: unknown key 'paackage' in treaty.config.json (did you mean 'package'?)\n1 error, 0 warnings\n");
    }
    expect(existsSync(join(root, "generated"))).toBe(false);
  });

  it("a config that is not UTF-8 is read-failed at its first bad byte, by every command that reads it (the byte was U+FFFD)", async () => {
    const latin1 = (text: string): Buffer => Buffer.from(text, "latin1");
    const commands = [["check"], ["generate"], ["diff", "--against", "HEAD"], ["import", "schema.json"], ["init"]];
    const config = withContracts({});
    writeFileSync(join(config, "treaty.config.json"), latin1('{\n  "idl": "contracts",\n  "out": "gen\xe9"\n}\n'));
    // In package.json's `treaty` key; a bad byte elsewhere in it is read-failed too, for the file holds settings.
    const manifest = withContracts({});
    writeFileSync(join(manifest, "package.json"), latin1('{ "name": "x", "description": "caf\xe9",\n  "treaty": { "idl": "contracts" } }\n'));
    for (const [root, expected] of [
      [config, "treaty.config.json:3:14 - error read-failed: cannot read treaty.config.json: not UTF-8 text (save the file as UTF-8)\n1 error, 0 warnings\n"],
      [manifest, "package.json:1:35 - error read-failed: cannot read package.json: not UTF-8 text (save the file as UTF-8)\n1 error, 0 warnings\n"],
    ] as const) {
      for (const command of commands) {
        const { status, stderr } = await cli(command, root);
        expect({ command, status, stderr }).toEqual({ command, status: 1, stderr: expected });
      }
      expect(readdirSync(root).sort()).toEqual(["contracts", root === config ? "treaty.config.json" : "package.json"]);
    }
    // A package.json without a `treaty` key holds no settings: its bytes are npm's to judge.
    const other = withContracts({ "treaty.config.json": '{ "idl": "contracts" }\n' });
    writeFileSync(join(other, "package.json"), latin1('{ "name": "x", "description": "caf\xe9" }\n'));
    expect((await cli(["check"], other)).status).toBe(0);
  });

  it("a bad config is reported in the --format asked for, as every other diagnostic is", async () => {
    const malformed = withContracts({ "treaty.config.json": '{ "idl": "contracts", }\n' });
    const json = await cli(["check", "--format", "json"], malformed);
    expect(json.status).toBe(1);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout)).toMatchObject({ errors: 1, warnings: 0, diagnostics: [{ code: "json-syntax", loc: { file: "treaty.config.json", line: 1, col: 23 } }] });
    const wrongType = withContracts({ "treaty.config.json": '{ "idl": 3 }\n' });
    const github = await cli(["check", "--format", "github"], wrongType);
    expect(github).toEqual({ status: 1, stderr: "", stdout: "::error file=treaty.config.json,line=1,col=10,title=treaty invalid-value::'idl' in treaty.config.json must be a directory path (a string)\n" });
    const overlap = withContracts({ "treaty.config.json": '{ "idl": "contracts", "out": "." }\n' });
    expect(JSON.parse((await cli(["check", "--format", "json"], overlap)).stdout)).toMatchObject({ errors: 1, diagnostics: [{ code: "out-dir-overlaps" }] });
  });

  it("refuses an output directory that is the root or holds the contracts, and removes nothing", async () => {
    const cases: [Record<string, string>, string[], string][] = [
      [{ "treaty.config.json": '{ "idl": "contracts", "out": "." }\n' }, ["generate"], "is the project root"],
      [{}, ["generate", "--idl", "contracts", "--out", "contracts"], "is the contracts directory"],
      [{}, ["generate", "--idl", "contracts/x", "--out", "contracts"], "contains the contracts directory"],
      // The file system's root holds everything: a prefix test (`/` + `/`) missed it, and treaty wrote
      // there. (`idl/` does not exist here: should the check miss it again, the run fails reading it.)
      [{}, ["generate", "--out", "/"], "contains the contracts directory"],
      [{}, ["generate", "--idl", "/nonexistent-contracts", "--out", ".."], "contains the project root"],
    ];
    for (const [files, args, reason] of cases) {
      const root = withContracts({ ...files, "keep.ts": "// @generated by treaty v0.1.0 from elsewhere. DO NOT EDIT.\n" });
      const { status, stderr } = await cli(args, root);
      expect(status).toBe(1);
      expect(stderr).toContain(`error out-dir-overlaps: the output directory '${args.at(-1) === "generate" ? "." : args.at(-1)}' ${reason}`);
      expect(existsSync(join(root, "keep.ts"))).toBe(true);
    }
  });

  it("compares where the directories lead: an output directory that is a symlink to the contracts, the root or above is refused, and nothing is written through it", async () => {
    const cases: [Record<string, string>, string, string[], string][] = [
      [{}, "contracts", ["generate", "--idl", "contracts", "--out", "link"], "is the contracts directory once symlinks are followed"],
      [{ "treaty.config.json": '{ "idl": "contracts", "out": "link" }\n' }, "contracts", ["generate"], "is the contracts directory once symlinks are followed"],
      [{}, ".", ["generate", "--idl", "contracts", "--out", "link"], "is the project root once symlinks are followed"],
      [{}, "..", ["generate", "--idl", "contracts", "--out", "link"], "contains the contracts directory once symlinks are followed"],
      // The contracts through a link, the output where they are.
      [{}, "contracts", ["generate", "--idl", "link", "--out", "contracts"], "is the contracts directory"],
    ];
    for (const [files, target, args, reason] of cases) {
      const root = withContracts(files);
      symlinkSync(target, join(root, "link"));
      const before = readdirSync(join(root, "contracts"), { recursive: true });
      const { status, stderr } = await cli(args, root);
      expect(status).toBe(1);
      expect(stderr).toContain(`error out-dir-overlaps: the output directory '${args.at(-1) === "generate" ? "link" : args.at(-1)}' ${reason}`);
      expect(readdirSync(join(root, "contracts"), { recursive: true })).toEqual(before);
      expect(readdirSync(root).filter((name) => name.includes("treaty"))).toEqual(files["treaty.config.json"] ? ["treaty.config.json"] : []);
    }
  });
});

describe("what is in the way of reading or writing is a diagnostic, not an internal error", () => {
  it("an output directory that is a file, or below one, is write-failed; the file is left as it was", async () => {
    const root = withContracts({ "treaty.config.json": '{ "idl": "contracts" }\n', "taken.txt": "mine\n" });
    for (const out of ["taken.txt", "taken.txt/deeper"]) {
      const { status, stderr } = await cli(["generate", "--out", out], root);
      expect(status).toBe(1);
      expect(stderr).toContain(`error write-failed: cannot write into ${out}: taken.txt is a file, not a directory; nothing was written`);
    }
    expect(readFileSync(join(root, "taken.txt"), "utf8")).toBe("mine\n");
  });

  it("a contract file that is not UTF-8 is read-failed at its first bad byte, by check and generate alike", async () => {
    const root = withContracts({ "treaty.config.json": '{ "idl": "contracts" }\n' });
    // "café" then a lone 0xFF: the bad byte is the 20th character of line 3.
    const text = Buffer.concat([Buffer.from('contract: demo.latin\nowner: x\ndescription: "caf\u00e9 '), Buffer.from([0xff]), Buffer.from('"\nversions:\n  "1.0":\n    fields:\n      a: { type: string, maxLength: 3 }\n')]);
    writeFileSync(join(root, "contracts/demo.latin.yaml"), text);
    for (const command of ["check", "generate"]) {
      const { status, stderr } = await cli([command], root);
      expect(status).toBe(1);
      expect(stderr).toContain("contracts/demo.latin.yaml:3:20 - error read-failed: cannot read contracts/demo.latin.yaml: not UTF-8 text (save the file as UTF-8)");
    }
    // A character cut short before a line break: the line and column where it starts.
    writeFileSync(join(root, "contracts/demo.latin.yaml"), Buffer.concat([Buffer.from("contract: demo.latin\nowner: "), Buffer.from([0xe2, 0x82]), Buffer.from("\n")]));
    expect((await cli(["check"], root)).stderr).toContain("contracts/demo.latin.yaml:2:8 - error read-failed");
    expect(existsSync(join(root, "generated"))).toBe(false);
    // A byte-order mark is no column: the first key is at 1:1 (an unexpected name says where it is).
    writeFileSync(join(root, "contracts/demo.latin.yaml"), `\uFEFFcontract: demo.other\nowner: x\nversions:\n  "1.0":\n    fields:\n      a: { type: string, maxLength: 3 }\n`);
    expect((await cli(["check"], root)).stderr).toContain("contracts/demo.latin.yaml:1:1 - warning file-name-mismatch");
  });
});

describe("the project root is found from where treaty runs", () => {
  const CONTRACT = readFileSync(join(ROOT, "idl/errors/operation.error.yaml"), "utf8");
  /** A project whose root config says `contracts/` and `gen/`, with a nested package that is not treaty's. */
  const nested = (extra: Record<string, string> = {}): string =>
    project({
      "treaty.config.json": '{ "idl": "contracts", "out": "gen" }\n',
      "contracts/errors/operation.error.yaml": CONTRACT,
      "tools/lint/package.json": '{ "name": "lint" }\n',
      ...extra,
    });

  it("stops at the nearest treaty.config.json or package.json with a treaty key, else takes the cwd", () => {
    const root = nested({ "services/api/package.json": '{ "name": "api", "treaty": { "idl": "idl" } }\n', "services/api/src/x.ts": "" });
    expect(findProjectRoot(join(root, "tools/lint"))).toBe(root);
    expect(findProjectRoot(join(root, "contracts/errors"))).toBe(root);
    expect(findProjectRoot(root)).toBe(root);
    // A monorepo member with its own settings is a project of its own.
    expect(findProjectRoot(join(root, "services/api/src"))).toBe(join(root, "services/api"));
    const bare = project({ "a/b/package.json": '{ "name": "b" }\n' });
    expect(findProjectRoot(join(bare, "a/b"))).toBe(join(bare, "a/b"));
  });

  it("generate, check and diff from a subdirectory work as from the root", async () => {
    const root = nested();
    const sub = join(root, "tools/lint");
    expect((await cli(["generate"], sub)).status).toBe(0);
    expect(existsSync(join(root, "gen/operation.error/v1_0/validator.ts"))).toBe(true);
    expect(existsSync(join(sub, "gen"))).toBe(false);
    // The same files, headers included, wherever it runs.
    expect((await cli(["generate", "--check"], join(root, "contracts/errors"))).status).toBe(0);
    expect((await cli(["check"], sub)).status).toBe(0);
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=dev", ...args], { cwd: root });
    git("init", "-q");
    git("add", "treaty.config.json");
    git("commit", "-qm", "config");
    const diff = await cli(["diff", "--against", "HEAD"], sub);
    expect(diff.status).toBe(0);
    expect(diff.stdout).toContain("File: `contracts/errors/operation.error.yaml`");
  });

  it("--idl and --out are relative to the cwd, the config's paths to the root", async () => {
    const root = nested();
    const contracts = join(root, "contracts");
    expect((await cli(["check", "--idl", "."], contracts)).status).toBe(0);
    const wrong = await cli(["check", "--idl", "contracts"], contracts);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain("error read-failed");
    expect((await cli(["generate", "--out", "../out"], contracts)).status).toBe(0);
    expect(existsSync(join(root, "out/index.ts"))).toBe(true);
  });

  it("locates diagnostics relative to the cwd, in every format", async () => {
    const bad = CONTRACT.replace("type: ErrorClass", "type: ErrorKlass");
    const root = nested({ "contracts/errors/operation.error.yaml": bad });
    const line = bad.split("\n").findIndex((l) => l.includes("ErrorKlass")) + 1;
    const at = (path: string) => `${path}:${line}:15 - error unknown-type`;
    expect((await cli(["check"], root)).stderr).toContain(at("contracts/errors/operation.error.yaml"));
    expect((await cli(["check"], join(root, "contracts/errors"))).stderr).toContain(at("operation.error.yaml"));
    expect((await cli(["generate"], join(root, "tools/lint"))).stderr).toContain(at("../../contracts/errors/operation.error.yaml"));
    const json = JSON.parse((await cli(["check", "--format", "json"], join(root, "tools"))).stdout) as { diagnostics: { loc: { file: string } }[] };
    expect(json.diagnostics.map((d) => d.loc.file)).toEqual(["../contracts/errors/operation.error.yaml"]);
    expect((await cli(["check", "--format", "github"], join(root, "contracts"))).stdout).toContain(`::error file=errors/operation.error.yaml,line=${line},col=15,`);
    // The config's own problems too.
    writeFileSync(join(root, "treaty.config.json"), '{ "idl": "contracts", "paackage": {} }\n');
    expect((await cli(["check"], join(root, "tools/lint"))).stderr).toMatch(/^\.\.\/\.\.\/treaty\.config\.json:1:23 - error unknown-key: /);
  });
});

describe("the package setting", () => {
  const root = project({ "treaty.config.json": '{ "idl": "contracts", "package": { "name": "@acme/contracts", "version": "1.2.3" } }\n' });
  cpSync(join(ROOT, "idl"), join(root, "contracts"), { recursive: true });

  it("makes the output a package exporting the index and each contract, built to dist/", async () => {
    expect((await cli(["generate"], root)).status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(root, "generated/package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "@acme/contracts", version: "1.2.3", type: "module", peerDependencies: { treaty: expect.any(String) } });
    expect(manifest["//"]).toMatch(/^@generated by treaty v\S+ from treaty\.config\.json\. DO NOT EDIT\.$/);
    const exports = manifest["exports"] as Record<string, unknown>;
    const booking = ["airport", "airport_query", "intent", "offer_selection", "offers", "order", "search", "ticket_request", "tickets"].map((name) => `./booking.${name}`);
    expect(Object.keys(exports)).toEqual([".", "./agent.task", ...booking, "./operation.error", "./task.result", "./tool.publish_post.command", "./agents", "./package.json"]);
    expect(exports["./agents"]).toEqual({ types: "./dist/generated/agents/index.d.ts", default: "./dist/generated/agents/index.js" });
    expect(exports["./task.result"]).toEqual({ types: "./dist/generated/task.result/index.d.ts", default: "./dist/generated/task.result/index.js" });
    const tsconfig = readFileSync(join(root, "generated/tsconfig.json"), "utf8");
    expect(tsconfig).toMatch(/^\/\/ @generated by treaty/);
    expect(tsconfig).toContain('"outDir": "dist"');
  });

  it("leaves the build output and installed packages alone, and drops its files when the setting goes", async () => {
    const marked = "// @generated by treaty v0 from contracts. DO NOT EDIT.\n";
    for (const path of ["generated/dist/index.js", "generated/node_modules/x/index.js"]) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), marked);
    }
    expect((await cli(["generate", "--check"], root)).status).toBe(0);
    writeFileSync(join(root, "treaty.config.json"), '{ "idl": "contracts" }\n');
    const stale = await cli(["generate", "--check"], root);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("extra   package.json\nextra   tsconfig.json\n");
    expect(stale.stderr).not.toContain("node_modules");
    // dist/ stays the build's once the setting goes: its compiled files carry the marker, and were
    // removed while the declarations beside them (tsc drops the comment) stayed.
    expect(stale.stderr).not.toContain("dist/");
    expect((await cli(["generate"], root)).status).toBe(0);
    expect(readFileSync(join(root, "generated/dist/index.js"), "utf8")).toBe(marked);
    expect(existsSync(join(root, "generated/package.json"))).toBe(false);
  });
});

describe("the llm setting", () => {
  const CONTRACT = readFileSync(join(ROOT, "idl/errors/operation.error.yaml"), "utf8");
  const llmFiles = (root: string, contract: string): string[] => readdirSync(join(root, "generated", contract, "v1_0", "llm")).sort();

  it("reads the providers, from treaty.config.json or package.json", () => {
    expect(loadConfig(project({ "treaty.config.json": '{ "llm": { "providers": ["openai", "mcp", "openai"] } }\n' })).value).toEqual({ ...DEFAULT_CONFIG, llm: { providers: ["openai", "mcp"] }, file: "treaty.config.json" });
    expect(loadConfig(project({ "package.json": '{ "treaty": { "llm": { "providers": [] } } }\n' })).value).toEqual({ ...DEFAULT_CONFIG, llm: { providers: [] }, file: "package.json" });
  });

  it("locates each bad value with a stable code", () => {
    const text = ["{", '  "llm": {', '    "providers": ["openai", "opneai", 3],', '    "provider": []', "  }", "}", ""].join("\n");
    expect(diagnostics({ "treaty.config.json": text })).toEqual([
      "treaty.config.json:3:29 - error invalid-value: a provider in 'llm.providers' in treaty.config.json must be one of openai, anthropic, gemini, mcp (did you mean 'openai'?)",
      "treaty.config.json:3:39 - error invalid-value: a provider in 'llm.providers' in treaty.config.json must be one of openai, anthropic, gemini, mcp",
      "treaty.config.json:4:5 - error unknown-key: unknown key 'provider' in 'llm' in treaty.config.json (did you mean 'providers'?)",
    ]);
    expect(diagnostics({ "treaty.config.json": '{ "llm": ["openai"] }' })).toEqual([
      `treaty.config.json:1:10 - error invalid-value: 'llm' in treaty.config.json must be an object: { "providers": [...] }`,
    ]);
    expect(diagnostics({ "package.json": '{ "treaty": { "llm": { "providers": "openai" } } }' })).toEqual([
      "package.json:1:37 - error invalid-value: 'llm.providers' in package.json 'treaty' must be a list of providers (openai, anthropic, gemini, mcp)",
    ]);
  });

  it("is the default set of providers; a contract's own llm wins", async () => {
    // operation.error says `llm: { providers: [gemini, mcp] }`; a copy without that line says nothing.
    expect(CONTRACT).toMatch(/^llm: \{ providers: \[gemini, mcp\] \}$/m);
    const silent = CONTRACT.replace(/^llm: .*\n/m, "").replace(/^contract: operation\.error$/m, "contract: operation.other");
    const root = project({
      "treaty.config.json": '{ "llm": { "providers": ["anthropic", "mcp"] } }\n',
      "idl/operation.error.yaml": CONTRACT,
      "idl/operation.other.yaml": silent,
    });
    expect((await cli(["generate"], root)).status).toBe(0);
    expect(llmFiles(root, "operation.other")).toEqual(["anthropic.json", "mcp.json"]);
    expect(llmFiles(root, "operation.error")).toEqual(["gemini.json", "mcp.json"]);
    const llm = readFileSync(join(root, "generated/operation.other/v1_0/llm.ts"), "utf8");
    expect(llm).toMatch(/export const anthropic\b/);
    expect(llm).not.toMatch(/export const openai\b/);
    // generate --check reads the same setting: the output is current.
    expect((await cli(["generate", "--check"], root)).status).toBe(0);
  });
});
