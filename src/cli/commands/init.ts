import { accessSync, constants, existsSync, lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { isMap, isScalar, type Node } from "yaml";
import { CONFIG_FILE, loadConfig, type TreatyConfig } from "../../config/config.js";
import { createDiagnostic, formatDiagnostic, hasErrors, type Diagnostic, type StageResult } from "../../diagnostics/diagnostic.js";
import { locate, parseJsonSource, type SourceFile } from "../../load/load.js";
import { listContractFiles, readFailed, readOrUndefined, sourceText, unreadable } from "../../load/read-sources.js";
import { editJson } from "../../write/edit-json.js";
import { realPath } from "../../write/real-path.js";
import { existingDir, makeDirs, notADirectory } from "../../write/write.js";
import { printDiagnostics, type CliIo, type Command } from "../command.js";

/**
 * What `init` does with one file. Every outcome is decided, and everything it needs checked, before
 * the first `write` runs: a problem found on the way leaves no half scaffold.
 */
interface Outcome {
  readonly path: string;
  readonly action: "created" | "updated" | "skipped" | "failed";
  readonly why?: string;
  /** Makes the file, for a created or updated one. */
  readonly write?: () => void;
  /** What stops init before it writes anything: a file it needs and cannot read. */
  readonly problem?: Diagnostic;
}

/** The project's own files `init` would otherwise add; each is added only when absent. */
interface ScaffoldFile {
  readonly path: string;
  readonly contents: () => string;
  /** Why the project does without this file although it is absent (another file does its job), if it does. */
  readonly covered?: (root: string) => string | undefined;
}

const TEMPLATES = new URL("../../../templates/init/", import.meta.url);
const TREATY_PACKAGE = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  devDependencies: Record<string, string>;
};

const template = (name: string) => (): string => readFileSync(new URL(name, TEMPLATES), "utf8");

const EXAMPLE_CONTRACT = "orders/order.placed.yaml";

/** The scripts a producer runs; `npm run codegen -- --check` and `npm run contracts:check -- --against <ref>` in CI. */
const SCRIPTS = { codegen: "treaty generate", "contracts:check": "treaty check" };

/** What generated code and generated tests need to compile and run, in the ranges treaty is tested with. */
const DEV_DEPENDENCIES = ["typescript", "vitest", "@types/node"];

const configFile = (config: TreatyConfig): string => `${JSON.stringify({ idl: config.idl, out: config.out }, null, 2)}\n`;

/** The first of `paths` that exists, as the reason to skip a file. */
const anyOf =
  (paths: readonly string[]) =>
  (root: string): string | undefined => {
    const found = paths.find((path) => existsSync(join(root, path)));
    return found === undefined ? undefined : `${found} exists`;
  };

/** Contracts in `dir` already: the example would only be in the way. */
const hasContracts =
  (dir: string) =>
  (root: string): string | undefined => {
    try {
      return listContractFiles(join(root, dir), (path) => path).paths.length > 0 ? `${dir}/ already has contracts` : undefined;
    } catch {
      return undefined;
    }
  };

const VITE_CONFIGS = ["ts", "js", "mjs", "mts", "cjs", "cts"].flatMap((ext) => [`vitest.config.${ext}`, `vite.config.${ext}`]);

const scaffold = (config: TreatyConfig): ScaffoldFile[] => [
  // The settings go to treaty.config.json unless package.json's `treaty` key already holds them.
  { path: CONFIG_FILE, contents: () => configFile(config), covered: () => (config.file === "package.json" ? "package.json has a 'treaty' key" : undefined) },
  { path: `${config.idl}/${EXAMPLE_CONTRACT}`, contents: template(`idl/${EXAMPLE_CONTRACT}`), covered: hasContracts(config.idl) },
  { path: "tsconfig.json", contents: template("tsconfig.json") },
  // A vite config holds vitest's settings too.
  { path: "vitest.config.mts", contents: template("vitest.config.mts"), covered: anyOf(VITE_CONFIGS) },
  { path: ".github/workflows/contracts.yml", contents: template("contracts.yml") },
  // Named without its dot in templates/: npm leaves every `.gitignore` out of a tarball.
  { path: ".gitignore", contents: template("gitignore") },
];

/** Whether anything is at `path`, a dangling symbolic link included. */
const present = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** Creates `file` unless it exists or the project does without it: `init` never overwrites. */
const createIfAbsent = (root: string, file: ScaffoldFile): Outcome => {
  if (present(join(root, file.path))) return { path: file.path, action: "skipped", why: "exists" };
  const covered = file.covered?.(root);
  if (covered !== undefined) return { path: file.path, action: "skipped", why: covered };
  const target = join(root, file.path);
  const write = (): void => {
    makeDirs(dirname(target));
    writeFileSync(target, file.contents(), { flag: "wx" });
  };
  return { path: file.path, action: "created", write };
};

type Manifest = Record<string, unknown> & {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** package.json for a repo that has none. */
const newManifest = (root: string): Manifest => ({
  name: basename(root).toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+/, "") || "contracts",
  version: "0.0.0",
  private: true,
});

/** The keys of package.json that init reads or extends, each an object. */
const MANIFEST_OBJECTS = ["scripts", "dependencies", "devDependencies", "peerDependencies"];

/** package.json as it is: absent, or its text, parsed, and what it holds. */
interface ExistingManifest {
  readonly source?: { readonly file: SourceFile; readonly bom: boolean };
  readonly manifest: Manifest;
}

/**
 * package.json, or a new one when there is none; undefined when it is not one init can extend (not
 * UTF-8, not JSON, not an object, a key init extends that is no object), each problem at its line:col.
 */
const readManifest = (root: string): StageResult<ExistingManifest | undefined> => {
  const path = join(root, "package.json");
  if (!present(path)) return { value: { manifest: newManifest(root) }, diagnostics: [] };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return { value: undefined, diagnostics: [readFailed("package.json", unreadable(error))] };
  }
  // Not UTF-8 is refused, as a contract is: read as U+FFFD, a byte would be rewritten in silence.
  const text = sourceText(bytes);
  if (typeof text !== "string") return { value: undefined, diagnostics: [readFailed("package.json", text)] };
  const parsed = parseJsonSource("package.json", text);
  const file = parsed.value;
  if (!file || hasErrors(parsed.diagnostics)) return { value: undefined, diagnostics: parsed.diagnostics };
  const contents = file.doc.contents as Node | null;
  const invalid = (node: Node | null, where: string, expected: string): Diagnostic => createDiagnostic("invalid-value", locate(file, node?.range?.[0] ?? 0), { where, expected });
  if (!isMap(contents)) return { value: undefined, diagnostics: [invalid(contents, "package.json", "a JSON object")] };
  const diagnostics: Diagnostic[] = [];
  for (const { key, value } of contents.items) {
    const name = isScalar(key) ? String(key.value) : "";
    if (MANIFEST_OBJECTS.includes(name) && !isMap(value)) diagnostics.push(invalid((value as Node | null) ?? (key as Node), `'${name}' in package.json`, "an object"));
  }
  if (diagnostics.length > 0) return { value: undefined, diagnostics };
  // The text is without its byte-order mark (which JSON allows, and npm reads); written back with it.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { value: { source: { file, bom }, manifest: JSON.parse(text) as Manifest }, diagnostics: [] };
};

/**
 * Adds the scripts and devDependencies package.json lacks; never replaces one it has, but says in
 * `notes` where a script of that name runs something else (the workflow and the README run it).
 */
const mergeManifest = (manifest: Manifest, notes: string[]): string[] => {
  const added: string[] = [];
  const scripts = (manifest.scripts ??= {});
  for (const [name, command] of Object.entries(SCRIPTS)) {
    const own = scripts[name];
    if (own !== undefined) {
      if (typeof own !== "string" || !own.trim().startsWith(command)) {
        notes.push(`the script ${name} runs ${JSON.stringify(own)}, not ${JSON.stringify(command)}: the scaffolded workflow and the README's steps run npm run ${name}; make it run ${command}`);
      }
      continue;
    }
    scripts[name] = command;
    added.push(`script ${name}`);
  }
  const declared = (name: string): boolean => [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies].some((deps) => deps?.[name] !== undefined);
  for (const name of DEV_DEPENDENCIES) {
    if (declared(name)) continue;
    (manifest.devDependencies ??= {})[name] = TREATY_PACKAGE.devDependencies[name]!;
    added.push(`devDependency ${name}`);
  }
  return added;
};

// A .js file that loads as CommonJS: setting "type": "module" would break it.
const REQUIRES = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.[\w$]+\s*=/;

/**
 * What in a package without "type" is CommonJS, if anything: its entry (`main`, else index.js) or a
 * bin that is a .cjs file or a .js file using require/exports, or a tsconfig.json compiling to
 * CommonJS. These are the files "type" decides how to load; other .js files are not looked at.
 */
const commonJsSign = (root: string, manifest: Manifest): string | undefined => {
  const bin = manifest["bin"];
  const bins = typeof bin === "string" ? [bin] : typeof bin === "object" && bin !== null ? Object.values(bin) : [];
  const main = manifest["main"];
  const entries = [typeof main === "string" ? main : "index.js", ...bins.filter((b): b is string => typeof b === "string")];
  for (const entry of entries) {
    if (entry.endsWith(".cjs")) return `${entry} is a .cjs file`;
    const file = extname(entry) === "" ? `${entry}.js` : entry;
    if (file.endsWith(".js") && REQUIRES.test(readOrUndefined(join(root, file)) ?? "")) return `${file} uses require or exports`;
  }
  // tsconfig.json may hold comments: a pattern, not a JSON parse.
  if (/"module"\s*:\s*"commonjs"/i.test(readOrUndefined(join(root, "tsconfig.json")) ?? "")) return "tsconfig.json compiles to CommonJS";
  return undefined;
};

/**
 * A .js or .cjs file of the package's own (outside node_modules, vendor/, the output and dot
 * directories), if it has one: what a stated "type": "commonjs" can be there for. The first found.
 */
const scriptFile = (root: string, skip: ReadonlySet<string>, dir = root): string | undefined => {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (entry.isFile() && /\.c?js$/.test(entry.name)) return relative(root, join(dir, entry.name));
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === "node_modules" || skip.has(join(dir, entry.name))) continue;
    const found = scriptFile(root, skip, join(dir, entry.name));
    if (found !== undefined) return found;
  }
  return undefined;
};

const VENDOR_DIR = "vendor";

/**
 * A `file:` dependency on treaty outside the repo (what `npm install ../treaty/treaty-0.1.0.tgz`
 * writes) is out of a CI checkout's reach. Such a tarball is copied into vendor/ (never over a
 * different file) and the dependency pointed at the copy, so `npm ci` works in any checkout.
 */
const vendorTreaty = (root: string, manifest: Manifest, added: string[], notes: string[]): Outcome | undefined => {
  const deps = [manifest.dependencies, manifest.devDependencies].find((d) => d?.["treaty"] !== undefined);
  const spec = deps?.["treaty"];
  if (!deps || !spec?.startsWith("file:")) return undefined;
  const from = spec.slice("file:".length);
  const source = resolve(root, from);
  const inside = relative(root, source);
  if (!inside.startsWith("..") && !isAbsolute(inside)) return undefined;
  const unreachable = `package.json installs treaty from ${from}, outside this repo, where a CI checkout cannot reach it`;
  if (!/\.(tgz|tar\.gz)$/.test(source) || !statSync(source, { throwIfNoEntry: false })?.isFile()) {
    notes.push(`${unreachable}: put treaty's tarball (npm pack) in ${VENDOR_DIR}/ and npm install it from there`);
    return undefined;
  }
  const path = `${VENDOR_DIR}/${basename(source)}`;
  const target = join(root, path);
  // Read before anything is written: a tarball init cannot read stops it whole.
  const read = (file: string): Buffer | Diagnostic => {
    try {
      return readFileSync(file);
    } catch (error) {
      return readFailed(relative(root, file), unreadable(error));
    }
  };
  const tarball = read(source);
  if (!Buffer.isBuffer(tarball)) return { path, action: "failed", problem: tarball };
  let outcome: Outcome;
  if (present(target)) {
    const copy = statSync(target, { throwIfNoEntry: false })?.isFile() ? read(target) : undefined;
    if (copy !== undefined && !Buffer.isBuffer(copy)) return { path, action: "failed", problem: copy };
    if (!copy?.equals(tarball)) {
      notes.push(`${unreachable}, and ${path} is another file: replace or remove it and run treaty init again`);
      return { path, action: "skipped", why: `exists and differs from ${from}` };
    }
    outcome = { path, action: "skipped", why: `exists, the same as ${from}` };
  } else {
    const write = (): void => {
      makeDirs(dirname(target));
      writeFileSync(target, tarball, { flag: "wx" });
    };
    outcome = { path, action: "created", why: `copied from ${from}, which a CI checkout cannot reach`, write };
  }
  deps["treaty"] = `file:${path}`;
  added.push(`dependency treaty: file:${path}`);
  notes.push(`commit ${path}: npm ci installs treaty from it`);
  return outcome;
};

/**
 * The generated code is ES modules. A package.json without "type" becomes one unless something in
 * it is CommonJS that the change would break; a "type" it states is kept, and the user told.
 */
const setModuleType = (root: string, manifest: Manifest, created: boolean, added: string[], notes: string[], outDir: string): void => {
  if (manifest.type === "module") return;
  const commonJs = manifest.type === undefined && !created ? commonJsSign(root, manifest) : undefined;
  // npm init (npm 10.9 and later) writes "type": "commonjs" into a new package.json: where the
  // package has no script at all, nothing depends on it.
  const unused =
    manifest.type === "commonjs" && commonJsSign(root, manifest) === undefined && scriptFile(root, new Set([join(root, VENDOR_DIR), outDir])) === undefined;
  if (created) {
    manifest.type = "module";
    added.push('"type": "module"');
  } else if (manifest.type === undefined && commonJs === undefined) {
    manifest.type = "module";
    added.push('"type": "module": no "type" and no CommonJS entry, bin or tsconfig');
  } else if (unused) {
    manifest.type = "module";
    added.push('"type": "module": it said "commonjs" (as npm init writes it) and the package has no .js or .cjs file and no CommonJS tsconfig');
  } else {
    notes.push(
      `package.json ${manifest.type === undefined ? `has no "type" (CommonJS) and ${commonJs}` : `says "type": "${String(manifest.type)}"`}, and the generated code is ES modules: add "type": "module" if this package has no CommonJS .js files, or set 'package' in ${CONFIG_FILE} so the generated code is a package of its own`,
    );
  }
};

/** The `module` settings that compile the generated code (ES modules reading `import.meta`). */
const MODERN_MODULES = /^(?:es2020|es2022|esnext|node16|node18|node20|nodenext|preserve)$/i;

/**
 * What an existing tsconfig.json (its text) gets wrong for the generated code, if it is plain to
 * see: a `module` older than ES2020, or none (TypeScript's default for its target is CommonJS or
 * ES2015, neither of which takes `import.meta`). One that `extends` another is not second-guessed.
 */
const tsconfigModuleNote = (text: string | undefined): string | undefined => {
  if (text === undefined || /"extends"\s*:/.test(text)) return undefined;
  // tsconfig.json may hold comments: a pattern, not a JSON parse.
  const module = /"module"\s*:\s*"([^"]*)"/i.exec(text)?.[1];
  if (module !== undefined && MODERN_MODULES.test(module)) return undefined;
  return `tsconfig.json ${module === undefined ? "sets no \"module\"" : `sets "module": "${module}"`}, which cannot compile the generated code (ES modules using import.meta): set "module": "NodeNext" (and "moduleResolution": "NodeNext")`;
};

/** Creates or extends package.json, vendoring treaty's tarball when needed; what it cannot fix, it says in `notes`. */
const updateManifest = (root: string, { source, manifest }: ExistingManifest, outDir: string, notes: string[]): Outcome[] => {
  const path = join(root, "package.json");
  const added = mergeManifest(manifest, notes);
  setModuleType(root, manifest, source === undefined, added, notes, outDir);
  const vendored = vendorTreaty(root, manifest, added, notes);
  const outcomes = vendored ? [vendored] : [];
  if (![manifest.dependencies, manifest.devDependencies].some((deps) => deps?.["treaty"] !== undefined)) {
    notes.push("treaty is not a dependency of this package: the generated code imports treaty/runtime; install treaty as a dependency");
  }
  const moduleNote = tsconfigModuleNote(readOrUndefined(join(root, "tsconfig.json")));
  if (moduleNote) notes.push(moduleNote);
  if (source !== undefined && added.length === 0) return [...outcomes, { path: "package.json", action: "skipped", why: "has scripts and devDependencies of those names" }];
  // Keep the file's own indentation; and every byte of what init does not change ("Existing scripts and dependencies are kept as they are").
  const indent = /^[ \t]+(?=")/m.exec(source?.file.text ?? "")?.[0] ?? "  ";
  const contents = source ? `${source.bom ? "\uFEFF" : ""}${editJson(source.file, JSON.parse(source.file.text), manifest, indent)}` : `${JSON.stringify(manifest, null, indent)}\n`;
  const write = (): void => writeFileSync(path, contents);
  return [...outcomes, { path: "package.json", action: source === undefined ? "created" : "updated", why: added.join(", "), write }];
};

/**
 * Why `outcome`'s file cannot be had, found before anything is written: a file it needs and cannot
 * read, a file where a directory must be, or a place this process may not write.
 */
const obstacle = (root: string, { path, write, problem }: Outcome): Diagnostic | undefined => {
  if (problem) return problem;
  if (!write) return undefined;
  const target = join(root, path);
  const blocked = notADirectory(realPath(dirname(target)));
  if (blocked !== undefined) return createDiagnostic("write-failed", undefined, { what: dirname(path), detail: `${relative(root, blocked.path)} ${blocked.why}` });
  // The file itself when it is there to be replaced (package.json), else the directory it is made in.
  const at = present(target) ? target : existingDir(dirname(target));
  try {
    accessSync(at, constants.W_OK);
    return undefined;
  } catch (error) {
    return createDiagnostic("write-failed", undefined, { what: relative(root, at) || ".", detail: `it is not writable (${(error as NodeJS.ErrnoException).code})` });
  }
};

/**
 * Runs the writes in order. A refusal past the checks (a full disk) is that file's failure, said,
 * never a stack trace, and the files after it are not written: package.json comes last, so it never
 * names a vendor/ copy that failed.
 */
const writeAll = (planned: readonly Outcome[]): Outcome[] => {
  let failed = false;
  return planned.map((outcome) => {
    if (!outcome.write) return outcome;
    if (failed) return { path: outcome.path, action: "skipped", why: "not written, after the failure above" };
    try {
      outcome.write();
      return outcome;
    } catch (error) {
      failed = true;
      return { path: outcome.path, action: "failed", why: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
    }
  });
};

const printOutcome = (io: CliIo, { path, action, why }: Outcome): void => io.stderr(`${action.padEnd(7)} ${path}${why ? ` (${why})` : ""}\n`);

export const initCommand: Command = {
  name: "init",
  usage: `  treaty init
      Scaffold a producer repo in the current directory: treaty.config.json, an example
      contract under idl/, the 'codegen' and 'contracts:check' scripts and the devDependencies
      generated code and tests need (in package.json), tsconfig.json, vitest.config.mts, a CI
      workflow and a .gitignore; "type": "module" unless package.json shows CommonJS (a stated
      "commonjs" too, as npm init writes it, in a package with no .js file); treaty's tarball copied
      into vendor/ when package.json installs it from outside the repo. Never overwrites a
      file, and edits package.json in place (what it does not add or set keeps its text);
      running it again changes nothing. Writes nothing when package.json is not UTF-8 JSON it
      can extend or a file cannot be written (each reported first).`,
  options: {},
  positionals: { min: 0, max: 0 },
  run: async (_args, io) => {
    const loaded = loadConfig(io.cwd);
    const existing = readManifest(io.cwd);
    if (!loaded.value || !existing.value) {
      // A package.json that is not UTF-8 is refused by both, at the same byte: said once.
      printDiagnostics(io, [...new Map([...loaded.diagnostics, ...existing.diagnostics].map((d) => [formatDiagnostic(d), d])).values()]);
      return 1;
    }
    const notes: string[] = [];
    const planned = [...scaffold(loaded.value).map((file) => createIfAbsent(io.cwd, file)), ...updateManifest(io.cwd, existing.value, join(io.cwd, loaded.value.out), notes)];
    const blocked = planned.flatMap((outcome) => obstacle(io.cwd, outcome) ?? []);
    if (blocked.length > 0) {
      printDiagnostics(io, [...new Map(blocked.map((d) => [d.message, d])).values()]);
      return 1;
    }
    const outcomes = writeAll(planned);
    for (const outcome of outcomes) printOutcome(io, outcome);
    for (const note of notes) io.stderr(`treaty: note: ${note}\n`);
    if (outcomes.some((o) => o.action === "failed")) return 1;
    io.stderr("treaty: next: npm install && npm run codegen\n");
    return 0;
  },
};
