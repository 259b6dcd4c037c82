import type { Contract, ResolvedVersion } from "./model.js";

const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");

/** `task.result` → `TaskResult` */
export const contractTypeName = (contract: string): string => pascal(contract);

/** Words a module may not bind: JavaScript's reserved words, strict mode's, and globals a binding would hide. */
const UNBINDABLE = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if implements import in instanceof interface let new null package private protected public return static " +
    "super switch this throw true try typeof var void while with yield eval arguments undefined NaN Infinity"
  ).split(" "),
);

/**
 * The name a generated module binds for a contract or agent named `name` (`task.result` →
 * `taskResult`), with `_` added when that is a reserved word or one of the module's own names
 * (`taken`): `_` is never in a camel-cased name, so the result is another name's in no case.
 */
export const bindingName = (name: string, taken: ReadonlySet<string>): string => {
  const pascalName = pascal(name);
  const camel = pascalName[0]!.toLowerCase() + pascalName.slice(1);
  return UNBINDABLE.has(camel) || taken.has(camel) ? `${camel}_` : camel;
};

/** `1.2` → `v1_2`: the folder of a version's generated files and its export name. */
export const versionId = (version: string): string => `v${version.replace(".", "_")}`;

/** `task.result` 1.2 → `TaskResultV1_2`: the root type of a version. */
export const rootTypeName = (contract: string, version: string): string =>
  `${contractTypeName(contract)}V${version.replace(".", "_")}`;

/** Folder of a contract's generated files, relative to the output root. */
export const contractDir = (contract: string): string => contract;

/** The contract's generated regression tests, beside its code, relative to the output root. */
export const testsFile = (contract: string): string => `${contractDir(contract)}/${contract}.test.ts`;

/** The cases its regression tests run (JSON), beside them. */
export const casesFile = (contract: string): string => `${contractDir(contract)}/${contract}.cases.json`;

export const compareVersions = (a: string, b: string): number => {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am - bm || an - bn;
};

/** The versions of `contract` a `contract@major` reference accepts, oldest first. */
export const versionsOfMajor = (contract: Contract, major: number): readonly ResolvedVersion[] =>
  contract.versions.filter((v) => v.major === major);

/** The meaning `treaty import` writes for an enum value or a null it cannot know the meaning of; lint's `placeholder-meaning` flags it until someone writes one. */
export const PLACEHOLDER_MEANING = "TODO(import): say what this means";

/** A contract's name (`task.result`), as `contract:` and `treaty import --contract` take it. */
export const CONTRACT_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
export const CONTRACT_NAME_RULE = "dotted lower-case words (task.result)";

/** Names a contract's output directory (`<out>/<name>/`) cannot take, with why. */
export const RESERVED_CONTRACT_NAMES: ReadonlyMap<string, string> = new Map([
  ["agents", "where the agents are generated"],
  ["dist", "the generated package's build output, which generate leaves alone and its tsconfig does not compile"],
  ["node_modules", "skipped by generate, vitest, tsc and most .gitignore files"],
  // Files of the output's root: the directory would stand where the file goes.
  ["index.ts", "where the root index is written"],
  ["package.json", "where the package setting writes the package's manifest"],
  ["tsconfig.json", "where the package setting writes the package's tsconfig"],
]);

/**
 * Why an agent cannot take `name`, if it cannot: its module `agents/<name>.ts` (emit/agent.ts)
 * would be the agents' index, or a file TypeScript or vitest reads as another kind of file.
 */
export const reservedAgentName = (name: string): string | undefined => {
  if (name === "index") return "where the agents' index is written";
  const last = name.slice(name.lastIndexOf(".") + 1);
  if (name !== last && last === "d") return "a declaration file to TypeScript, which compiles no code from it";
  if (name !== last && (last === "test" || last === "spec")) return "a test file to vitest, which runs it and fails it for holding no tests";
  return undefined;
};

// Any name a protocol uses (`$schema`, `io.example/x`); control, format (bidi, zero-width) and
// separator characters are refused, since a reader could not see them in the source.
export const FIELD_NAME = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]+$/u;
export const FIELD_NAME_RULE = "a non-empty string without control, format or line-separator characters";
