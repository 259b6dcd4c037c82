// treaty's settings: `treaty.config.json` at the project root, or a `treaty` key in package.json.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap } from "yaml";
import { createDiagnostic, hasErrors, sortDiagnostics, type Diagnostic, type Params, type StageResult } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { LLM_PROVIDERS, type LlmProvider } from "../ir/model.js";
import { locate, parseJsonSource, type SourceFile } from "../load/load.js";
import { readFailed, readOrUndefined, sourceText, unreadable, type Unreadable } from "../load/read-sources.js";

export const CONFIG_FILE = "treaty.config.json";

/** With `package` set, the output directory is an npm package of this name. */
export interface PackageConfig {
  readonly name: string;
  /** Default "0.0.0". */
  readonly version: string;
  readonly description?: string;
}

export interface TreatyConfig {
  /** Where the contracts are, relative to the project root. */
  readonly idl: string;
  /** Where generated files go, relative to the project root. */
  readonly out: string;
  readonly package?: PackageConfig;
  /** `false`: no generated test files (a producer without vitest); absent means true. */
  readonly tests?: boolean;
  /** The providers a contract projects to when it does not say (`llm:` in the contract wins); absent means all. */
  readonly llm?: { readonly providers: readonly LlmProvider[] };
  /** The file the settings came from (`treaty.config.json` or `package.json`); absent when there are none. */
  readonly file?: string;
}

export const DEFAULT_CONFIG: TreatyConfig = { idl: "idl", out: "generated" };

/** The settings treaty knows; the README's Configuration section documents each. */
export const CONFIG_KEYS = ["idl", "out", "package", "tests", "llm"] as const;
/** The keys of the `package` setting. */
export const PACKAGE_KEYS = ["name", "version", "description"] as const;
// npm's rule for package names: lower case, URL-safe, optionally scoped.
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** Reads one settings object, reporting every problem at the node that has it. */
const createReader = (file: SourceFile, diagnostics: Diagnostic[]) => {
  const report = (node: Node | null | undefined, code: Parameters<typeof createDiagnostic>[0], params: Params): void => {
    diagnostics.push(createDiagnostic(code, locate(file, node?.range?.[0] ?? 0), params));
  };
  /** The map's pairs by key; unknown keys are reported with the nearest known one. */
  const entries = (map: YAMLMap, known: readonly string[], where: string): Map<string, Pair> => {
    const byKey = new Map<string, Pair>();
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      if (known.includes(key)) byKey.set(key, pair);
      else report(pair.key as Node, "unknown-key", { key, where, suggestion: didYouMean(key, known) });
    }
    return byKey;
  };
  /** A string value matching `rule`, or undefined after reporting what it must be. */
  const string = (pair: Pair | undefined, where: string, rule: RegExp, expected: string): string | undefined => {
    if (!pair) return undefined;
    const node = pair.value as Node | null;
    if (isScalar(node) && typeof node.value === "string" && rule.test(node.value)) return node.value;
    report(node ?? (pair.key as Node), "invalid-value", { where, expected });
    return undefined;
  };
  /** A boolean value, or undefined after reporting that it must be one. */
  const boolean = (pair: Pair | undefined, where: string): boolean | undefined => {
    if (!pair) return undefined;
    const node = pair.value as Node | null;
    if (isScalar(node) && typeof node.value === "boolean") return node.value;
    report(node ?? (pair.key as Node), "invalid-value", { where, expected: "true or false" });
    return undefined;
  };
  /** `{ providers: [...] }`, as a contract's `llm:` takes it, or undefined after reporting what is wrong. */
  const llm = (pair: Pair | undefined, where: string): TreatyConfig["llm"] => {
    if (!pair) return undefined;
    const node = pair.value as Node | null;
    if (!isMap(node)) {
      report(node ?? (pair.key as Node), "invalid-value", { where: `'llm' in ${where}`, expected: 'an object: { "providers": [...] }' });
      return undefined;
    }
    const entry = entries(node, ["providers"], `'llm' in ${where}`).get("providers");
    if (!entry) return undefined;
    const list = entry.value as Node | null;
    if (!isSeq(list)) {
      report(list ?? (entry.key as Node), "invalid-value", { where: `'llm.providers' in ${where}`, expected: `a list of providers (${LLM_PROVIDERS.join(", ")})` });
      return undefined;
    }
    const providers: LlmProvider[] = [];
    let valid = true;
    for (const item of list.items as (Node | null)[]) {
      const value = isScalar(item) ? item.value : undefined;
      const provider = LLM_PROVIDERS.find((known) => known === value);
      if (provider === undefined) {
        valid = false;
        const suggestion = typeof value === "string" ? didYouMean(value, LLM_PROVIDERS) : "";
        report(item ?? list, "invalid-value", { where: `a provider in 'llm.providers' in ${where}`, expected: `one of ${LLM_PROVIDERS.join(", ")}${suggestion}` });
      } else if (!providers.includes(provider)) providers.push(provider);
    }
    return valid ? { providers } : undefined;
  };
  return { report, entries, string, boolean, llm };
};

/** The settings in `node` (the whole of treaty.config.json, or package.json's `treaty`). */
const readSettings = (file: SourceFile, node: Node | null, where: string): StageResult<TreatyConfig> => {
  const diagnostics: Diagnostic[] = [];
  const r = createReader(file, diagnostics);
  if (!isMap(node)) {
    r.report(node, "invalid-value", { where, expected: "an object" });
    return { value: DEFAULT_CONFIG, diagnostics };
  }
  const keys = r.entries(node, CONFIG_KEYS, where);
  const dir = /\S/;
  const idl = r.string(keys.get("idl"), `'idl' in ${where}`, dir, "a directory path (a string)") ?? DEFAULT_CONFIG.idl;
  const out = r.string(keys.get("out"), `'out' in ${where}`, dir, "a directory path (a string)") ?? DEFAULT_CONFIG.out;
  const tests = r.boolean(keys.get("tests"), `'tests' in ${where}`);
  const llm = r.llm(keys.get("llm"), where);
  const config: TreatyConfig = { idl, out, ...(tests !== undefined && { tests }), ...(llm && { llm }), file: file.path };
  const pkg = keys.get("package");
  if (!pkg) return { value: config, diagnostics };
  const pkgWhere = `'package' in ${where}`;
  if (!isMap(pkg.value)) {
    r.report((pkg.value as Node | null) ?? (pkg.key as Node), "invalid-value", { where: pkgWhere, expected: "an object with the generated package's name" });
    return { value: config, diagnostics };
  }
  const fields = r.entries(pkg.value, PACKAGE_KEYS, pkgWhere);
  if (!fields.has("name")) r.report(pkg.key as Node, "missing-key", { where: pkgWhere, key: "name" });
  const name = r.string(fields.get("name"), `'package.name' in ${where}`, PACKAGE_NAME, "an npm package name (lower case, e.g. @acme/contracts)");
  const version = r.string(fields.get("version"), `'package.version' in ${where}`, SEMVER, "a semver version, e.g. 1.0.0") ?? "0.0.0";
  const description = r.string(fields.get("description"), `'package.description' in ${where}`, /[^]/, "a string");
  if (name === undefined) return { value: config, diagnostics };
  return { value: { ...config, package: description === undefined ? { name, version } : { name, version, description } }, diagnostics };
};

/** Whether a package.json's text is JSON with a `treaty` key. */
const hasTreatyKey = (text: string | undefined): boolean => {
  try {
    const manifest: unknown = JSON.parse((text ?? "null").replace(/^\uFEFF/, ""));
    return typeof manifest === "object" && manifest !== null && Object.hasOwn(manifest, "treaty");
  } catch {
    return false;
  }
};

/**
 * The project root for a command run in `cwd`: the nearest directory at or above it that holds
 * treaty.config.json or a package.json with a `treaty` key. A package.json without one (a nested
 * package's, or a monorepo member's) does not stop the search; with no config up to the
 * filesystem root, the root is `cwd` itself.
 */
export const findProjectRoot = (cwd: string): string => {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, CONFIG_FILE)) || hasTreatyKey(readOrUndefined(join(dir, "package.json")))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
};

/** The `treaty` pair of a parsed package.json, if it has one. */
const treatyKeyOf = (file: SourceFile): Pair | undefined => {
  const contents = file.doc.contents;
  return isMap(contents) ? contents.items.find((pair) => isScalar(pair.key) && pair.key.value === "treaty") : undefined;
};

/**
 * A settings file's text (see `sourceText`), undefined when there is none, or why it cannot be read:
 * not UTF-8 is refused at its first bad byte, as a contract is (read as U+FFFD, `"idl": "id\xe9"`
 * named a directory `id\uFFFD`, and what was wrong was said of a path that is not the user's).
 */
const settingsText = (path: string): string | Unreadable | undefined => {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? undefined : unreadable(error);
  }
  return sourceText(bytes);
};

/**
 * treaty's settings for the project at `root`: from `treaty.config.json`, or from the `treaty` key
 * of package.json (both at once is an error), else the defaults. The value is undefined when the
 * settings are wrong; every problem is a diagnostic at its file:line:col.
 */
export const loadConfig = (root: string): StageResult<TreatyConfig | undefined> => {
  const configText = settingsText(join(root, CONFIG_FILE));
  // Absent: the defaults, or package.json's. There but unreadable: an error, never the defaults in silence.
  if (typeof configText === "object") return { value: undefined, diagnostics: [readFailed(CONFIG_FILE, configText)] };
  const packageRead = settingsText(join(root, "package.json"));
  // Only a package.json with a `treaty` key holds settings (its key read as U+FFFD would not hide it); without one, it is npm's to report.
  if (typeof packageRead === "object" && hasTreatyKey(readOrUndefined(join(root, "package.json")))) {
    return { value: undefined, diagnostics: [readFailed("package.json", packageRead)] };
  }
  const packageText = typeof packageRead === "string" ? packageRead : undefined;
  const configFile = configText === undefined ? undefined : parseJsonSource(CONFIG_FILE, configText);
  // package.json matters only when it holds a `treaty` key; a package.json that does not parse is npm's to report.
  const packageFile = packageText === undefined ? undefined : parseJsonSource("package.json", packageText);
  const manifest = packageFile?.value && !hasErrors(packageFile.diagnostics) ? packageFile.value : undefined;
  const treatyKey = manifest ? treatyKeyOf(manifest) : undefined;

  if (configFile && treatyKey) {
    const loc = locate(manifest!, (treatyKey.key as Node).range?.[0] ?? 0);
    return { value: undefined, diagnostics: [createDiagnostic("config-conflict", loc, { file: CONFIG_FILE })] };
  }
  let settings: StageResult<TreatyConfig> = { value: DEFAULT_CONFIG, diagnostics: [] };
  if (configFile) {
    if (!configFile.value || hasErrors(configFile.diagnostics)) return { value: undefined, diagnostics: configFile.diagnostics };
    settings = readSettings(configFile.value, configFile.value.doc.contents, CONFIG_FILE);
  } else if (treatyKey) {
    settings = readSettings(manifest!, treatyKey.value as Node | null, "package.json 'treaty'");
  }
  return hasErrors(settings.diagnostics) ? { value: undefined, diagnostics: sortDiagnostics(settings.diagnostics) } : settings;
};
