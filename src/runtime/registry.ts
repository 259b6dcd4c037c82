// The registry of every contract a build knows: `decode` reads any known version into the
// canonical model, `encode` writes the canonical model as any known version. Failures are data
// (the `Failure` of errors.ts, which the runtime returns too), never exceptions.
import { AdapterNotImplemented, createAdaptLog, type AdaptLog, type Located } from "./adapters.js";
import { createFailure, createStamp, type Failure, type FailureFacts, type FailureKind } from "./errors.js";
import type { Issue } from "./issue.js";
import type { VersionShape } from "./redact.js";
import { isRecord } from "./is-record.js";
import { readFallbacks } from "./fallbacks.js";
import { readPastMaxNodes, readValue, UNREADABLE, UNREADABLE_ISSUE } from "./snapshot.js";

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
  /**
   * `check` and the snapshot in one pass: a fresh plain copy of a valid payload (each property
   * read once), else undefined. Generated since treaty 0.1; without it decode copies, then checks.
   */
  readonly read?: ((value: unknown) => T | undefined) | undefined;
  toCanonical(value: T, log: AdaptLog): C;
  fromCanonical(value: C, log: AdaptLog): T;
  /** When an object of the version has `unknown_fields: strip`: a copy without the keys it does not declare (kept objects keep theirs). */
  readonly strip?: ((value: T, log: AdaptLog) => T) | undefined;
  /** Sensitivity tags and enum meanings of this version, for redaction and re-ask messages. */
  readonly shape?: VersionShape | undefined;
  /**
   * Per LLM provider this version is projected to, what undoes the projection in a reply: the
   * generated function that returns the reply without the nulls the provider writes for absent
   * fields and with its maps' entries made objects (`fromOpenAI`), pushing to `issues` a map that
   * names a key twice; or null where the reply is the contract's value. A provider not listed is unknown.
   */
  readonly from?: { readonly [provider: string]: ((value: unknown, issues: Issue[]) => unknown) | null } | undefined;
}

export interface ContractRegistration {
  readonly name: string;
  readonly canonical: string;
  readonly envelope: "embedded" | "none";
  readonly unknownFields: "reject" | "strip" | "keep";
  // `any`: each version has its own payload type; the registry's signatures recover them.
  readonly versions: { readonly [version: string]: VersionRegistration<any, any> };
}

/** Every contract a registry holds, by name. */
export type Registrations = { readonly [name: string]: ContractRegistration };

/** The canonical type of a registered contract. */
export type CanonicalOf<R extends ContractRegistration> = R["versions"][R["canonical"]] extends VersionRegistration<infer T, unknown> ? T : never;

/** The payload type of version `V` of a registered contract. */
export type PayloadOf<R extends ContractRegistration, V extends keyof R["versions"]> = R["versions"][V] extends VersionRegistration<infer T, unknown> ? T : never;

/**
 * What a stage of the registry found wrong, before a registry or runtime stamps it into a
 * `Failure` (the runtime with the versions the host accepts and its trace id).
 */
export interface Fault extends Omit<FailureFacts, "contract" | "attempt"> {
  readonly ok: false;
  readonly kind: FailureKind;
}

export interface Decoded<T> {
  readonly ok: true;
  /** The payload in the canonical model. */
  readonly value: T;
  readonly contract: string;
  /** The version the payload declared. */
  readonly version: string;
  /** The version it was read as: a newer minor of a `strip` or `keep` contract is read as the newest known one. */
  readonly readAs: string;
  readonly canonical: string;
  /** The adapter path: versions from `readAs` to `canonical`. */
  readonly path: readonly string[];
  /**
   * What `readAs` did not know, as JSON pointers: the values of a newer minor it read as their
   * enum's fallback, and the keys it removed because it does not declare them (`unknown_fields: strip`).
   */
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

export interface RegistryOptions {
  /** The dotted name put in each error's `source` (default `treaty.registry`). */
  readonly source?: string;
  /** Makes each error's `error_id` (default `ERR-`, a UUID drawn once, and a count). */
  readonly errorId?: () => string;
}

export interface ReadOptions {
  /** The version of an `envelope: none` payload, which cannot name its own (default: canonical). */
  readonly version?: string;
  /**
   * The LLM provider whose projection the payload was written under (`openai`, ...): its nulls for
   * absent fields go and its maps' entries become objects, by the mapping of the version the payload
   * is read as (in a copy: the input is never changed), before the contract's validator runs; a
   * map naming a key twice is `SCHEMA_INVALID` (`unique` at the map). A provider the contract is
   * not projected to is `UNKNOWN_PROVIDER`.
   */
  readonly from?: string;
}

export interface Registry<R extends Registrations> {
  readonly contracts: R;
  /** Reads `input` (a payload of any known version) into the canonical model. */
  decode<K extends keyof R & string>(contract: K, input: unknown, options?: ReadOptions): Decoded<CanonicalOf<R[K]>> | Failure;
  /** Writes a canonical value as `version`, validated there. */
  encode<K extends keyof R & string, V extends keyof R[K]["versions"] & string>(contract: K, value: CanonicalOf<R[K]>, version: V): Encoded<PayloadOf<R[K], V>> | Failure;
}

const fault = (kind: FailureKind, facts: Omit<Fault, "ok" | "kind"> = {}): Fault => ({ ok: false, kind, ...facts });

const issue = (path: string, code: string, expected: string): Issue => ({ path, code, message: `${code}: expected ${expected}`, expected });

/** What a producer should have put in the envelope: one of the versions the reader reads. */
export const versionIssue = (readable: readonly string[]): Issue => issue("/version", "enum", `one of ${readable.join(", ")}`);


const VERSION = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/** The newest known version of the same major below `version`, which a `strip` or `keep` reader reads it as. */
const olderMinor = (known: readonly string[], version: string): string | undefined => {
  const match = VERSION.exec(version);
  if (!match) return undefined;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return known
    .map((v) => [v, ...v.split(".").map(Number)] as const)
    .filter(([, m, n]) => m === major && n! < minor)
    .sort(([, , a], [, , b]) => b! - a!)[0]?.[0];
};

/** Runs an adapter, turning a stub nobody wrote yet into a fault. */
const adapting = <T>(version: string, run: () => T): { ok: true; value: T } | Fault => {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return notImplemented(error, version);
  }
};

/** A stub nobody wrote yet, as a fault; any other exception is a bug and propagates. */
const notImplemented = (error: unknown, version: string): Fault => {
  if (!(error instanceof AdapterNotImplemented)) throw error;
  return fault("adapter-not-implemented", { version });
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
  /** Pointers of the values a newer minor's payload held that `readAs` reads as their enum's fallback. */
  readonly fellBack?: readonly string[];
}

/** The registration of `name`, or an `unknown-contract` fault listing the contracts `contracts` knows. */
export const lookupContract = (contracts: Registrations, name: string): ContractRegistration | Fault =>
  Object.hasOwn(contracts, name) ? contracts[name]! : fault("unknown-contract", { known: Object.keys(contracts) });

/** A version `entry` does not have, with the versions it does (a runtime narrows them to those its host accepts). */
const unsupported = (entry: ContractRegistration): Fault => {
  const known = Object.keys(entry.versions);
  return fault("unsupported-version", { known, issues: [versionIssue(known)] });
};

/** The version `input` declares, or why it declares none. */
export const declaredVersion = (entry: ContractRegistration, input: unknown, given: string | undefined): string | Fault => {
  if (entry.envelope === "none") return given ?? entry.canonical;
  if (!isRecord(input)) return fault("envelope", { issues: [issue("", "type", "object")] });
  if (input["contract"] !== entry.name) return fault("wrong-contract", { issues: [issue("/contract", "const", JSON.stringify(entry.name))] });
  const version = input["version"];
  // Absent is `required`; present but no string (`version: 1`) is `type`, as a validator says it.
  if (typeof version !== "string") return fault("envelope", { issues: [issue("/version", version === undefined ? "required" : "type", "a version string")] });
  return version;
};

/** The known version of `entry` a payload declaring `version` is read as (see `Decoded.readAs`), if any. */
const readableAs = (entry: ContractRegistration, version: string): string | undefined =>
  Object.hasOwn(entry.versions, version) ? version : entry.unknownFields !== "reject" ? olderMinor(Object.keys(entry.versions), version) : undefined;

/** Reads the envelope of `input`: which known version of `entry` it is read as. `given` is the version of an `envelope: none` payload. */
export const readEnvelope = (entry: ContractRegistration, input: unknown, given?: string): Enveloped | Fault => {
  const version = declaredVersion(entry, input, given);
  if (typeof version !== "string") return version;
  const readAs = readableAs(entry, version);
  if (readAs === undefined) return unsupported(entry);
  const registration = entry.versions[readAs]!;
  if (readAs === version || !isRecord(input)) return { ok: true, entry, version, readAs, registration, value: input };
  // A newer minor read as an older one: its envelope says which version it now is, and a value of
  // an enum with a fallback the older one does not know is read as the fallback, as the fallback promises.
  const renamed = { ...input, version: readAs };
  const fellBack: string[] = [];
  let value: unknown = renamed;
  if (registration.shape?.fallbacks !== undefined) {
    try {
      value = readFallbacks(renamed, registration.shape, fellBack);
    } catch {
      fellBack.length = 0; // too deep for the stack, or a getter threw: the validator judges it as sent
    }
  }
  return fellBack.length > 0 ? { ok: true, entry, version, readAs, registration, value, fellBack } : { ok: true, entry, version, readAs, registration, value: renamed };
};

const AS_SENT: ReadOptions = Object.freeze({});

/**
 * `read` with what the projection for provider `from` widened undone in its payload, by the
 * mapping of the version it is read as; no `from` leaves it as sent.
 */
export const readFrom = (read: Enveloped, from: string | undefined): Enveloped | Fault => {
  if (from === undefined) return read;
  const issues: Issue[] = [];
  const value = mappedBack(read.registration, read.value, from, issues);
  // The mapping's own issues (a map naming a key twice), not the validator's: masked by walking the shape.
  if (value === NOT_MAPPED) return issues.length > 0 ? { ...invalid(read, issues), validated: false } : fault("unknown-provider", { known: Object.keys(read.registration.from ?? {}) });
  // Field by field: a spread of `read` costs more than the mapping.
  return value === read.value ? read : { ok: true, entry: read.entry, version: read.version, readAs: read.readAs, registration: read.registration, value };
};

/** What `mappedBack` gives where the reply cannot be mapped back. */
export const NOT_MAPPED: unique symbol = Symbol("not mapped");

/**
 * A reply from provider `from` as the contract has it, by the mapping of `registration` (the
 * generated `fromOpenAI`, say, which returns its argument where nothing differs and never changes
 * it); NOT_MAPPED for a provider the version is not projected to, or for a reply the mapping finds
 * fault with (a map naming a key twice), its issues then in `issues`.
 */
export const mappedBack = (registration: Pick<VersionRegistration<unknown, unknown>, "from">, input: unknown, from: string, issues: Issue[] = []): unknown => {
  const mappings = registration.from;
  if (mappings === undefined || !Object.hasOwn(mappings, from)) return NOT_MAPPED;
  const mapping = mappings[from];
  if (!mapping) return input;
  const mapped = mapping(input, issues);
  return issues.length > 0 ? NOT_MAPPED : mapped;
};

/** A value the generated `read` did not pass, with the envelope it was read by. */
export interface Refused {
  readonly refused: Enveloped;
}

/**
 * The fast path of decoding a JS value (text is parsed by decode itself): the envelope read from
 * `input`, then the generated `read` of the version it is read as (of the reply mapped back, for a
 * provider's `from`), which checks and copies in one pass. `Refused` when the value does not pass
 * (or cannot be read); undefined when this path does not apply (a registration without `read`, an
 * envelope that fails, a reply its mapping finds fault with, a copy past MAX_NODES values): the
 * caller then copies the value first and judges the copy.
 */
export const readChecked = (entry: ContractRegistration, input: unknown, given: string | undefined, from: string | undefined): Enveloped | Refused | undefined => {
  try {
    // The envelope read here rather than by `readEnvelope`: this path builds one `Enveloped`, of the copy.
    const version = declaredVersion(entry, input, given);
    if (typeof version !== "string") return undefined;
    const readAs = readableAs(entry, version);
    if (readAs === undefined || readAs !== version) return undefined; // a newer minor: its envelope is rewritten first
    const registration = entry.versions[readAs]!;
    if (registration.read === undefined) return undefined;
    // A reply from a provider is mapped back first, and what `read` checks and copies is the mapped value.
    const mapped = from === undefined ? input : mappedBack(registration, input, from);
    if (mapped === NOT_MAPPED) return undefined;
    const value = registration.read(mapped);
    // Refused unjudged, its copy past MAX_NODES values: copied (and refused) by the caller instead.
    if (value === undefined && readPastMaxNodes()) return undefined;
    if (value === undefined) return { refused: { ok: true, entry, version, readAs, registration, value: mapped } };
    return { ok: true, entry, version, readAs, registration, value };
  } catch {
    return undefined; // a getter or Proxy trap threw reading the envelope
  }
};

/** The version a payload is read as and its registration: an `Enveloped`, or a runtime's lane. */
export type ReadAs = Pick<Enveloped, "readAs" | "registration">;

/**
 * Why a payload that failed `check` of the version it is read as is invalid, by the stage it fails
 * first: any issue other than a `rule.*` one is a schema failure, every issue kept; only a payload
 * whose issues are all rule issues fails the semantic stage.
 */
export const invalid = (read: ReadAs, issues: readonly Issue[]): Fault => ({
  ok: false,
  kind: issues.some((i) => !i.code.startsWith("rule.")) ? "schema" : "semantic",
  version: read.readAs,
  issues,
  shape: read.registration.shape,
  validated: true,
});

/**
 * Why a value `read` refused is invalid, judged on the value itself rather than on a copy: nothing
 * of it is handed over, so a second reading cannot change what is returned, and a failing decode
 * copies nothing. Undefined when the judgement is not a plain one (no issue, as from a getter or
 * Proxy answering differently the second time, or an unreadable value): the caller then copies the
 * value and judges the copy, as for any value.
 */
export const refusedFault = (read: ReadAs, value: unknown): Fault | undefined => {
  const issues = read.registration.errors(value);
  if (issues.length === 0 || issues.some((i) => i.code === UNREADABLE_ISSUE.code && i.path === UNREADABLE_ISSUE.path)) return undefined;
  return invalid(read, issues);
};

/**
 * A log for the adapters of one decode. Most decodes drop and fill nothing: their log, still
 * empty, serves the next one (`giveBack`), so a decode allocates none. While adapters run the log
 * is out, so a decode they start (hand-written code may) takes a fresh one.
 */
let spareLog: AdaptLog | undefined;
const takeLog = (): AdaptLog => {
  const log = spareLog ?? createAdaptLog();
  spareLog = undefined;
  return log;
};
/** What `log` recorded, as a result holds it; the log kept for the next decode when that is nothing. */
const giveBack = (log: AdaptLog): { readonly dropped: readonly Located[]; readonly filled: readonly Located[] } => {
  if (log.dropped.length > 0 || log.filled.length > 0) return log;
  spareLog = log;
  return NO_LOG;
};
const NO_LOG = Object.freeze({ dropped: Object.freeze([]) as readonly Located[], filled: Object.freeze([]) as readonly Located[] });

/** Converts a payload that passed `check` of the version it is read as into the canonical model. */
export function toCanonical(read: Enveloped): Decoded<unknown> | Fault;
/** The same, with the runtime's `repairs` in the result (one object, not a copy of it). */
export function toCanonical<R>(read: Enveloped, repairs: R): (Decoded<unknown> & { readonly repairs: R }) | Fault;
export function toCanonical(read: Enveloped, repairs?: unknown): Decoded<unknown> | Fault {
  const decoded = adaptRead(read.entry, read.registration, read.version, read.readAs, read.value, repairs);
  // What the older minor did not know: the values it read as the fallback, with the keys it stripped.
  return read.fellBack === undefined || !decoded.ok ? decoded : { ...decoded, stripped: [...read.fellBack, ...decoded.stripped] };
}

type Registered = VersionRegistration<unknown, unknown>;

/**
 * `adaptRead` of one version read as itself, its constants taken once: what the runtime's quick
 * path keeps per lane, so a decode reads no registration property beyond the call.
 */
export const adaptLane = <R>(entry: ContractRegistration, registration: Registered, readAs: string, repairs: R): ((read: unknown) => (Decoded<unknown> & { readonly repairs: R }) | Fault) => {
  const { name: contract, canonical } = entry;
  const { path, toCanonical, strip, revalidate } = registration;
  if (strip !== undefined || revalidate) return (read) => adaptRead(entry, registration, readAs, readAs, read, repairs);
  return (read) => {
    const log = takeLog();
    let value: unknown;
    try {
      value = toCanonical(read, log);
    } catch (error) {
      return notImplemented(error, readAs);
    }
    const { dropped, filled } = giveBack(log);
    return { ok: true, value, contract, version: readAs, readAs, canonical, path, stripped: NOTHING, dropped, filled, repairs };
  };
};

/** `toCanonical` of an `Enveloped` held as its parts (the runtime's quick path allocates none). */
export function adaptRead(entry: ContractRegistration, registration: Registered, version: string, readAs: string, read: unknown): Decoded<unknown> | Fault;
export function adaptRead<R>(entry: ContractRegistration, registration: Registered, version: string, readAs: string, read: unknown, repairs: R): (Decoded<unknown> & { readonly repairs: R }) | Fault;
export function adaptRead(entry: ContractRegistration, registration: Registered, version: string, readAs: string, read: unknown, repairs?: unknown): Decoded<unknown> | Fault {
  const contract = entry.name;
  let value = read;
  let stripped: readonly string[] = NOTHING;
  if (registration.strip) {
    const stripLog = createAdaptLog();
    value = registration.strip(value, stripLog);
    stripped = stripLog.dropped.map((d) => d.path);
  }
  const log = takeLog();
  // No closure and no intermediate result here: this runs on every decode.
  let adapted: unknown;
  try {
    adapted = registration.toCanonical(value, log);
  } catch (error) {
    return notImplemented(error, readAs);
  }
  const { dropped, filled } = giveBack(log);
  if (registration.revalidate) {
    const canonical = entry.versions[entry.canonical]!;
    if (!canonical.check(adapted)) return fault("not-representable", { version: readAs, issues: canonical.errors(adapted), shape: canonical.shape, validated: true });
  }
  const { canonical } = entry;
  const { path } = registration;
  return repairs === undefined
    ? { ok: true, value: adapted, contract, version, readAs, canonical, path, stripped, dropped, filled }
    : ({ ok: true, value: adapted, contract, version, readAs, canonical, path, stripped, dropped, filled, repairs } as Decoded<unknown>);
}

/**
 * Every registration as one shape, each optional member present: generated registrations spread
 * their adapters in, so each version's object had a shape of its own, and the property reads on
 * every decode's path (`read`, `toCanonical`, `strip`, `path`...) went polymorphic once a process
 * decoded a few contracts. Made once per registry.
 */
const uniform = <R extends Registrations>(contracts: R): R => {
  const entries: { [name: string]: ContractRegistration } = {};
  for (const [name, entry] of Object.entries(contracts)) {
    const versions: { [version: string]: VersionRegistration<unknown, unknown> } = {};
    for (const [version, r] of Object.entries(entry.versions)) {
      versions[version] = {
        path: r.path,
        lossless: r.lossless,
        revalidate: r.revalidate,
        check: r.check,
        errors: r.errors,
        read: r.read,
        toCanonical: r.toCanonical,
        fromCanonical: r.fromCanonical,
        strip: r.strip,
        shape: r.shape,
        from: r.from,
      };
    }
    entries[name] = { name: entry.name, canonical: entry.canonical, envelope: entry.envelope, unknownFields: entry.unknownFields, versions };
  }
  return entries as R;
};

export const createRegistry = <R extends Registrations>(given: R, options: RegistryOptions = {}): Registry<R> => {
  const contracts = uniform(given);
  const stamp = createStamp("createRegistry", options.source ?? "treaty.registry", options.errorId);
  // The facts named one by one: a rest pattern copied the fault, the most of a failing decode's own cost.
  const failure = (contract: string, fault: Fault): Failure =>
    createFailure(fault.kind, { contract, version: fault.version, issues: fault.issues, shape: fault.shape, validated: fault.validated, known: fault.known }, stamp);

  const decode = (contract: string, input: unknown, options: ReadOptions = AS_SENT): Decoded<unknown> | Failure => {
    const entry = lookupContract(contracts, contract);
    if ("ok" in entry) return failure(contract, entry);
    const fast = readChecked(entry, input, options.version, options.from);
    if (fast !== undefined && "refused" in fast) {
      const refused = refusedFault(fast.refused, fast.refused.value);
      if (refused) return failure(contract, refused);
    } else if (fast !== undefined) {
      const decoded = toCanonical(fast);
      return decoded.ok ? decoded : failure(contract, decoded);
    }
    // Read once, into the copy that is validated and converted (see snapshot.ts).
    const value = readValue(input);
    if (value === UNREADABLE) return failure(contract, fault("unparseable", { issues: [UNREADABLE_ISSUE] }));
    const enveloped = readEnvelope(entry, value, options.version);
    const read = enveloped.ok ? readFrom(enveloped, options.from) : enveloped;
    if (!read.ok) return failure(contract, read);
    const decoded = read.registration.check(read.value) ? toCanonical(read) : invalid(read, read.registration.errors(read.value));
    return decoded.ok ? decoded : failure(contract, decoded);
  };

  const encode = (contract: string, value: unknown, version: string): Encoded<unknown> | Failure => {
    const entry = lookupContract(contracts, contract);
    if ("ok" in entry) return failure(contract, entry);
    if (!Object.hasOwn(entry.versions, version)) return failure(contract, unsupported(entry));
    const registration = entry.versions[version]!;
    const log = createAdaptLog();
    const adapted = adapting(version, () => registration.fromCanonical(value, log));
    if (!adapted.ok) return failure(contract, adapted);
    if (!registration.check(adapted.value)) {
      return failure(contract, fault("not-representable", { version, issues: registration.errors(adapted.value), shape: registration.shape, validated: true }));
    }
    return { ok: true, value: adapted.value, contract, version, canonical: entry.canonical, path: [...registration.path].reverse(), dropped: log.dropped, filled: log.filled };
  };

  return { contracts, decode, encode } as Registry<R>;
};
