// The validators of a contract's versions, with what two or more versions hold word for word
// written once: each version's declarations (the hoisted is_/err_/take_ functions, patterns and key
// sets) are compiled as before, then a declaration goes to the contract's `validators.ts` when
// another version has the same one, and each version's `validator.ts` imports it from there. A
// wide contract's versions share all but their root's own fields; a named type unchanged across
// versions is one set of functions.
//
// "The same" is more than the same text: a declaration names others (`is_Item` inside `is_Order`),
// and those must be the same too. Each declaration is identified by its text and the identities
// of the declarations it names, in the order the hoister emits them (a declaration precedes the
// ones it uses); one naming a later one (recursion through another type) or holding state (a
// recursion's depth counter) stays in its version, and so does everything that uses one that stays. One name in `validators.ts` is one
// declaration: the first that two versions share under it.
import { createHash } from "node:crypto";
import type { Contract, Project } from "../ir/model.js";
import { compileValidator, type ValidatorCode } from "./validator-compiler.js";

/** One version's validator: what stays in its own file, and what it imports from `validators.ts`. */
export interface VersionValidator extends ValidatorCode {
  /** Names it imports from the contract's `validators.ts`. */
  readonly shared: readonly string[];
  /** Names it imports from treaty/runtime. */
  readonly runtime: readonly string[];
}

export interface ContractValidators {
  /** By version. */
  readonly versions: ReadonlyMap<string, VersionValidator>;
  /** The declarations of `validators.ts`, each exported, and the runtime names they use. */
  readonly shared: { readonly declarations: readonly string[]; readonly runtime: readonly string[] };
}

const DECLARED = /^(?:function|const|let) ([A-Za-z_$][\w$]*)/gm;

/** Whether the character code `c` may continue a name (`[\w$]`), and start one unless a digit. */
const namePart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** What `namesIn` looks for; `holds`, a character every such name holds, if there is one. */
interface Wanted {
  has(name: string): boolean;
  readonly holds?: number;
}

/** A character (its code) that every one of `names` holds, if any, not a digit: the hoister's names all hold `_`. */
const heldByAll = (names: readonly string[]): number | undefined => {
  const shortest = names.reduce<string | undefined>((a, b) => (a === undefined || b.length < a.length ? b : a), undefined);
  if (shortest === undefined) return undefined;
  for (let i = 0; i < shortest.length; i++) {
    const c = shortest[i]!;
    if (!isDigit(c.charCodeAt(0)) && names.every((name) => name.includes(c))) return c.charCodeAt(0);
  }
  return undefined;
};

/**
 * The names in `text` (what `/[A-Za-z_$][\w$]*\/g` matches, in strings too) that `wanted` holds,
 * scanned without collecting the others: the text of a wide contract's validators has millions.
 * When every wanted name holds one character, only the names around each of its occurrences are
 * read (found by `indexOf`, ten times faster than reading every character).
 */
const namesIn = (text: string, wanted: Wanted, found: (name: string) => void): void => {
  const { length } = text;
  const { holds } = wanted;
  if (holds !== undefined) {
    const held = String.fromCharCode(holds);
    for (let at = text.indexOf(held); at !== -1; ) {
      let start = at;
      while (start > 0 && namePart(text.charCodeAt(start - 1))) start--;
      // A name does not start with a digit: `1_a` holds the name `_a`.
      while (start < at && isDigit(text.charCodeAt(start))) start++;
      let end = at + 1;
      while (end < length && namePart(text.charCodeAt(end))) end++;
      const name = text.slice(start, end);
      if (wanted.has(name)) found(name);
      at = text.indexOf(held, end);
    }
    return;
  }
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (!namePart(c) || isDigit(c)) {
      i++;
      continue;
    }
    const start = i;
    while (++i < length && namePart(text.charCodeAt(i)));
    const name = text.slice(start, i);
    if (wanted.has(name)) found(name);
  }
};

interface Declaration {
  readonly text: string;
  /** The names it declares, joined: what it is known as in `validators.ts`. */
  readonly key: string;
  readonly names: readonly string[];
  /** Its text and the identities of the declarations it names. */
  readonly identity: string;
  /** It names a declaration that comes after it, or is a variable: it stays in its version. */
  readonly local: boolean;
  /** The other declarations of its version it names, by index. */
  readonly uses: readonly number[];
}

const describe = (declarations: readonly string[]): Declaration[] => {
  const names = declarations.map((text) => [...text.matchAll(DECLARED)].map((m) => m[1]!));
  const owner = new Map<string, number>();
  names.forEach((own, i) => own.forEach((name) => owner.set(name, i)));
  const wanted: Wanted = { has: (name) => owner.has(name), holds: heldByAll([...owner.keys()]) };
  const described: Declaration[] = [];
  declarations.forEach((text, i) => {
    const named = new Set<number>();
    namesIn(text, wanted, (name) => named.add(owner.get(name)!));
    named.delete(i);
    const uses = [...named].sort((a, b) => a - b);
    // A module-level `let` (a recursion's depth counter) is state: each version keeps its own.
    const local = uses.some((j) => j > i) || /^let /m.test(text);
    const hash = createHash("sha256").update(text);
    for (const j of uses) if (j < i) hash.update(`\0${described[j]!.identity}`);
    described.push({ text, key: names[i]!.join(" "), names: names[i]!, identity: hash.digest("hex"), local, uses });
  });
  return described;
};

/** `declaration` with each of its top-level functions and constants exported. */
const exported = (declaration: string): string => declaration.replace(/^(function|const) /gm, "export $1 ");

/** What stays in each version (by index, its declarations in order) and what goes to `validators.ts`. */
export interface Sharing {
  readonly versions: readonly { readonly declarations: readonly string[]; readonly shared: ReadonlySet<string> }[];
  /** The declarations of `validators.ts`, exported, in the order they were first met. */
  readonly shared: readonly string[];
}

/**
 * Which of the versions' declarations (each version's in the hoister's order) two or more versions
 * share; per version, the declarations it keeps and the names of shared ones it holds.
 */
export const shareDeclarations = (versions: readonly (readonly string[])[]): Sharing => {
  const described = versions.map(describe);
  // How many versions hold each declaration (by key and identity).
  const holders = new Map<string, number>();
  for (const declarations of described) for (const d of declarations) holders.set(`${d.key}\0${d.identity}`, (holders.get(`${d.key}\0${d.identity}`) ?? 0) + 1);
  const verdicts = new Map<string, boolean>();
  const claimed = new Map<string, string>();
  const shared: string[] = [];
  const result = described.map((declarations) => {
    const isShared: boolean[] = [];
    const names = new Set<string>();
    declarations.forEach((d, i) => {
      const id = `${d.key}\0${d.identity}`;
      let verdict = verdicts.get(id);
      if (verdict === undefined) {
        verdict = holders.get(id)! >= 2 && !d.local && d.uses.every((j) => isShared[j]) && (claimed.get(d.key) ?? d.identity) === d.identity;
        verdicts.set(id, verdict);
        if (verdict) {
          claimed.set(d.key, d.identity);
          shared.push(exported(d.text));
        }
      }
      isShared.push(verdict);
      if (verdict) for (const name of d.names) names.add(name);
    });
    return { declarations: declarations.filter((_, i) => !isShared[i]).map((d) => d.text), shared: names };
  });
  return { versions: result, shared };
};

/**
 * Every version's validator code, with the declarations two or more versions share moved to the
 * contract's `validators.ts`. A single version shares nothing.
 */
export const compileContractValidators = (project: Project, contract: Contract): ContractValidators => {
  const compiled = contract.versions.map((version) => {
    const runtime = new Set<string>();
    const code = compileValidator(project, contract, version, (name) => runtime.add(name));
    return { version: version.version, code, runtime };
  });
  const sharing = shareDeclarations(compiled.map(({ code }) => code.declarations));
  const versions = new Map<string, VersionValidator>();
  const allRuntime = new Set<string>();
  compiled.forEach(({ version, code, runtime }, i) => {
    for (const name of runtime) allRuntime.add(name);
    const { declarations, shared } = sharing.versions[i]!;
    const used = new Set<string>();
    const wanted = { has: (name: string) => shared.has(name) || runtime.has(name) };
    for (const text of [...declarations, code.check, code.readReset, code.read, ...code.errors, code.reset ?? ""]) namesIn(text, wanted, (name) => used.add(name));
    versions.set(version, {
      ...code,
      declarations,
      shared: [...used].filter((name) => shared.has(name)).sort(),
      // capIssues is the template's own.
      runtime: [...runtime].filter((name) => used.has(name) || name === "capIssues").sort(),
    });
  });
  const sharedUsed = new Set<string>();
  for (const text of sharing.shared) namesIn(text, allRuntime, (name) => sharedUsed.add(name));
  return { versions, shared: { declarations: sharing.shared, runtime: [...allRuntime].filter((name) => sharedUsed.has(name)).sort() } };
};

let last: { readonly project: Project; readonly contract: Contract; readonly validators: ContractValidators } | undefined;

/**
 * `compileContractValidators`, kept for the contract last asked about: its versions' files and its
 * `validators.ts` are emitted one after another, and each needs all of them compiled.
 */
export const contractValidators = (project: Project, contract: Contract): ContractValidators => {
  if (last?.project !== project || last.contract !== contract) last = { project, contract, validators: compileContractValidators(project, contract) };
  return last.validators;
};
