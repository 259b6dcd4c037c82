// The registry of every contract a build knows: `decode` reads any known version into the
// canonical model, `encode` writes the canonical model as any known version. Failures are data
// (classes from operation.error), never exceptions.
import { AdapterNotImplemented, createAdaptLog, type AdaptLog, type Located } from "./adapters.js";
import type { Issue } from "./issue.js";
import type { VersionShape } from "./redact.js";

/** One version as generated code registers it. */
export interface VersionRegistration<T, C> {
  /** Versions from this one to the canonical one, both included. */
  readonly path: readonly string[];
  /** vN → canonical → vN gives back every value unchanged. */
  readonly lossless: boolean;
  /** toCanonical may produce a value the canonical validator rejects. */
  readonly revalidate: boolean;
  check(value: unknown): value is T;
  errors(value: unknown): Issue[];
  toCanonical(value: T, log: AdaptLog): C;
  fromCanonical(value: C, log: AdaptLog): T;
  /** For `unknown_fields: strip`: a copy without the keys the version does not declare. */
  strip?(value: T, log: AdaptLog): T;
  /** Sensitivity tags and enum meanings of this version, for redaction and re-ask messages. */
  readonly shape?: VersionShape;
}

export interface ContractRegistration {
  readonly name: string;
  readonly canonical: string;
  readonly envelope: "embedded" | "none";
  readonly unknownFields: "reject" | "strip";
  // `any`: each version has its own payload type; the registry's signatures recover them.
  readonly versions: { readonly [version: string]: VersionRegistration<any, any> };
}

/** Every contract a registry holds, by name. */
export type Registrations = { readonly [name: string]: ContractRegistration };

/** The canonical type of a registered contract. */
export type CanonicalOf<R extends ContractRegistration> = R["versions"][R["canonical"]] extends VersionRegistration<infer T, unknown> ? T : never;

/** The payload type of version `V` of a registered contract. */
export type PayloadOf<R extends ContractRegistration, V extends keyof R["versions"]> = R["versions"][V] extends VersionRegistration<infer T, unknown> ? T : never;

/** A failure, shaped after operation.error: decide on `class` and `code`, never on `message`. */
export interface ContractError {
  readonly class: "INVALID_INPUT" | "UNSUPPORTED_VERSION";
  /**
   * INVALID_INPUT: `envelope` (no readable contract and version), `wrong-contract`, `invalid` (fails
   * its version), `not-representable` (valid, but the target version cannot hold it).
   * UNSUPPORTED_VERSION: `unsupported-version`, `unknown-contract`, `adapter-not-implemented`.
   */
  readonly code: "envelope" | "wrong-contract" | "invalid" | "not-representable" | "unsupported-version" | "unknown-contract" | "adapter-not-implemented";
  readonly retryable: false;
  readonly message: string;
  readonly contract: string;
  readonly version?: string;
  /** UNSUPPORTED_VERSION: what this build knows (versions, or contracts for `unknown-contract`). */
  readonly known?: readonly string[];
  /** INVALID_INPUT: every problem, with paths into the payload as validated. */
  readonly issues?: readonly Issue[];
}

export interface Failure {
  readonly ok: false;
  readonly error: ContractError;
}

export interface Decoded<T> {
  readonly ok: true;
  /** The payload in the canonical model. */
  readonly value: T;
  readonly contract: string;
  /** The version the payload declared. */
  readonly version: string;
  /** The version it was read as: a newer minor of a `strip` contract is read as the newest known one. */
  readonly readAs: string;
  readonly canonical: string;
  /** The adapter path: versions from `readAs` to `canonical`. */
  readonly path: readonly string[];
  /** Keys removed because `readAs` does not declare them (`unknown_fields: strip`), as JSON pointers. */
  readonly stripped: readonly string[];
  /** Values no version on the path had a place for. */
  readonly dropped: readonly Located[];
  /** Values put in from declared defaults. */
  readonly filled: readonly Located[];
}

export interface Encoded<T> {
  readonly ok: true;
  /** The payload at `version`, validated there. */
  readonly value: T;
  readonly contract: string;
  readonly version: string;
  readonly canonical: string;
  /** The adapter path: versions from `canonical` to `version`. */
  readonly path: readonly string[];
  /** Values `version` has no place for: a lossy down-conversion names them, never silently. */
  readonly dropped: readonly Located[];
  readonly filled: readonly Located[];
}

export interface Registry<R extends Registrations> {
  readonly contracts: R;
  /** Reads `input` (a payload of any known version) into the canonical model. `version` is for `envelope: none` (default: canonical). */
  decode<K extends keyof R & string>(contract: K, input: unknown, version?: string): Decoded<CanonicalOf<R[K]>> | Failure;
  /** Writes a canonical value as `version`, validated there. */
  encode<K extends keyof R & string, V extends keyof R[K]["versions"] & string>(contract: K, value: CanonicalOf<R[K]>, version: V): Encoded<PayloadOf<R[K], V>> | Failure;
}

const fail = (error: Omit<ContractError, "retryable">): Failure => ({ ok: false, error: { ...error, retryable: false } });

const issue = (path: string, code: string, expected: string): Issue => ({ path, code, message: `${code}: expected ${expected}`, expected });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const VERSION = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/** The newest known version of the same major below `version`, which a `strip` reader reads it as. */
const olderMinor = (known: readonly string[], version: string): string | undefined => {
  const match = VERSION.exec(version);
  if (!match) return undefined;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return known
    .map((v) => [v, ...v.split(".").map(Number)] as const)
    .filter(([, m, n]) => m === major && n! < minor)
    .sort(([, , a], [, , b]) => b! - a!)[0]?.[0];
};

/** Runs an adapter, turning a stub nobody wrote yet into a typed failure. */
const adapting = <T>(contract: string, version: string, run: () => T): { ok: true; value: T } | Failure => {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return notImplemented(error, contract, version);
  }
};

/** A stub nobody wrote yet, as a typed failure; any other exception is a bug and propagates. */
const notImplemented = (error: unknown, contract: string, version: string): Failure => {
  if (!(error instanceof AdapterNotImplemented)) throw error;
  return fail({ class: "UNSUPPORTED_VERSION", code: "adapter-not-implemented", message: error.message, contract, version });
};

/** Shared by every result that strips nothing. */
const NOTHING: readonly string[] = Object.freeze([]);


/** A payload whose envelope named a version this build reads: the first stage of decoding. */
export interface Enveloped {
  readonly ok: true;
  readonly entry: ContractRegistration;
  /** The version the payload declared. */
  readonly version: string;
  /** The known version it is read as (see `Decoded.readAs`). */
  readonly readAs: string;
  readonly registration: VersionRegistration<unknown, unknown>;
  /** The payload, its envelope naming `readAs`. */
  readonly value: unknown;
}

/** The registration of `name`, or an UNSUPPORTED_VERSION failure listing the contracts `contracts` knows. */
export const lookupContract = (contracts: Registrations, name: string): ContractRegistration | Failure =>
  Object.hasOwn(contracts, name)
    ? contracts[name]!
    : fail({ class: "UNSUPPORTED_VERSION", code: "unknown-contract", message: `this build does not know contract '${name}'`, contract: name, known: Object.keys(contracts) });

const unsupported = (entry: ContractRegistration, version: string): Failure => {
  const known = Object.keys(entry.versions);
  return fail({
    class: "UNSUPPORTED_VERSION",
    code: "unsupported-version",
    message: `${entry.name} ${version} is not supported; this build knows ${known.join(", ")}`,
    contract: entry.name,
    version,
    known,
  });
};

/** The version `input` declares, or why it declares none. */
const declaredVersion = (entry: ContractRegistration, input: unknown, given: string | undefined): string | Failure => {
  if (entry.envelope === "none") return given ?? entry.canonical;
  const name = entry.name;
  if (!isRecord(input)) return fail({ class: "INVALID_INPUT", code: "envelope", message: `a ${name} payload must be an object`, contract: name, issues: [issue("", "type", "object")] });
  if (input["contract"] !== name) {
    return fail({ class: "INVALID_INPUT", code: "wrong-contract", message: `the payload is not a ${name}`, contract: name, issues: [issue("/contract", "const", JSON.stringify(name))] });
  }
  const version = input["version"];
  if (typeof version !== "string") {
    return fail({ class: "INVALID_INPUT", code: "envelope", message: `a ${name} payload must name its version`, contract: name, issues: [issue("/version", "required", "a version string")] });
  }
  return version;
};

/** Reads the envelope of `input`: which known version of `entry` it is read as. `given` is the version of an `envelope: none` payload. */
export const readEnvelope = (entry: ContractRegistration, input: unknown, given?: string): Enveloped | Failure => {
  const version = declaredVersion(entry, input, given);
  if (typeof version !== "string") return version;
  const readAs = Object.hasOwn(entry.versions, version)
    ? version
    : entry.unknownFields === "strip"
      ? olderMinor(Object.keys(entry.versions), version)
      : undefined;
  if (readAs === undefined) return unsupported(entry, version);
  // A newer minor read as an older one: its envelope says which version it now is.
  const value = readAs !== version && isRecord(input) ? { ...input, version: readAs } : input;
  return { ok: true, entry, version, readAs, registration: entry.versions[readAs]!, value };
};

/** Why a payload that failed `check` of the version it is read as is invalid. */
export const invalid = (read: Enveloped, issues: readonly Issue[]): Failure =>
  fail({ class: "INVALID_INPUT", code: "invalid", message: `the payload is not a valid ${read.entry.name} ${read.readAs}`, contract: read.entry.name, version: read.readAs, issues });

/** Converts a payload that passed `check` of the version it is read as into the canonical model. */
export const toCanonical = (read: Enveloped): Decoded<unknown> | Failure => {
  const { entry, registration, readAs } = read;
  const contract = entry.name;
  let value = read.value;
  let stripped: readonly string[] = NOTHING;
  if (registration.strip) {
    const stripLog = createAdaptLog();
    value = registration.strip(value, stripLog);
    stripped = stripLog.dropped.map((d) => d.path);
  }
  const log = createAdaptLog();
  // No closure and no intermediate result here: this runs on every decode.
  let adapted: unknown;
  try {
    adapted = registration.toCanonical(value, log);
  } catch (error) {
    return notImplemented(error, contract, read.version);
  }
  if (registration.revalidate && !entry.versions[entry.canonical]!.check(adapted)) {
    return fail({
      class: "INVALID_INPUT",
      code: "not-representable",
      message: `the ${contract} ${readAs} payload does not fit the canonical ${entry.canonical}`,
      contract,
      version: entry.canonical,
      issues: entry.versions[entry.canonical]!.errors(adapted),
    });
  }
  return {
    ok: true,
    value: adapted,
    contract,
    version: read.version,
    readAs,
    canonical: entry.canonical,
    path: registration.path,
    stripped,
    dropped: log.dropped,
    filled: log.filled,
  };
};

export const createRegistry = <R extends Registrations>(contracts: R): Registry<R> => {
  const decode = (contract: string, input: unknown, given?: string): Decoded<unknown> | Failure => {
    const entry = lookupContract(contracts, contract);
    if ("ok" in entry) return entry;
    const read = readEnvelope(entry, input, given);
    if (!read.ok) return read;
    return read.registration.check(read.value) ? toCanonical(read) : invalid(read, read.registration.errors(read.value));
  };

  const encode = (contract: string, value: unknown, version: string): Encoded<unknown> | Failure => {
    const entry = lookupContract(contracts, contract);
    if ("ok" in entry) return entry;
    if (!Object.hasOwn(entry.versions, version)) return unsupported(entry, version);
    const registration = entry.versions[version]!;
    const log = createAdaptLog();
    const adapted = adapting(contract, version, () => registration.fromCanonical(value, log));
    if (!adapted.ok) return adapted;
    if (!registration.check(adapted.value)) {
      return fail({
        class: "INVALID_INPUT",
        code: "not-representable",
        message: `the canonical ${contract} value does not fit ${version}`,
        contract,
        version,
        issues: registration.errors(adapted.value),
      });
    }
    return { ok: true, value: adapted.value, contract, version, canonical: entry.canonical, path: [...registration.path].reverse(), dropped: log.dropped, filled: log.filled };
  };

  return { contracts, decode, encode } as Registry<R>;
};
