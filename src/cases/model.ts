// The regression tests treaty generates beside each contract's code, as data: what each test feeds
// which validator and what it expects, per version. `deriveCases` builds it from the IR;
// `emit/tests.ts` writes it in the cases file's format (testing/cases-file.ts), whose edits and
// expectations it already uses.
import type { Contract, JsonValue, ResolvedVersion } from "../ir/model.js";
import type { Edit, Expectation, Skipped } from "../testing/cases-file.js";

export type { Edit, Expectation };

/** A value given in full: an example, or the synthesized minimal value. */
export interface ValueCase {
  readonly title: string;
  readonly value: JsonValue;
  /** Absent: the value must pass. */
  readonly expect?: Expectation;
}

/** The base value of its version with edits applied; or left out, with the reason (`skip`). */
export type MutationCase = ({ readonly edits: readonly Edit[] } | Skipped) & {
  readonly title: string;
  /** Absent: the edited value must still pass (a bound's edge, a null where null is allowed). */
  readonly expect?: Expectation;
  /** It must also decode and encode back unchanged (a kept unknown key). */
  readonly roundTrip?: true;
};

/** The value mutations start from: the version's first valid example, or one treaty synthesized. */
export interface BaseValue {
  readonly value: JsonValue;
  /** Where it comes from, as the tests name it: `example 1 (...)`, or `synthesized`. */
  readonly from: string;
}

export interface VersionCases {
  readonly version: ResolvedVersion;
  /** Every example of the version, and the synthesized value when it has no valid example. */
  readonly values: readonly ValueCase[];
  /** Absent when the version has no valid example and none could be synthesized (see `missing`). */
  readonly base?: BaseValue;
  readonly mutations: readonly MutationCase[];
  /** Why there is no base value (no valid example, and none synthesized): the tests say so instead of checking mutations. */
  readonly missing?: string;
}

/** A valid value of an older version, read into the canonical model and written back. */
export interface CompatibilityCase {
  readonly title: string;
  readonly version: string;
  readonly value: JsonValue;
  /** vN → canonical → vN gives the value back unchanged (the registration says `lossless`). */
  readonly lossless: boolean;
  /** The versions after this one and before the canonical one: the value, decoded, encodes to each. */
  readonly newer: readonly string[];
}

export interface ContractCases {
  readonly contract: Contract;
  readonly versions: readonly VersionCases[];
  readonly compatibility: readonly CompatibilityCase[];
}
