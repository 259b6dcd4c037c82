// The typed model of adapters: how each version reaches the canonical one and back, decided when
// generating. The emitter renders it as straight-line code; nothing here is interpreted at run time.
import type { Contract, JsonValue, ResolvedVersion, SourceLocation } from "../ir/model.js";
import type { VariantSelector } from "../ir/one-of-variants.js";

/** `up` applies a version's declared changes (older → newer); `down` reverses them. */
export type Direction = "up" | "down";

/** Field names from the root of a payload (envelope excluded); [] is the root itself. */
export type FieldPath = readonly string[];

/** Something only a person can write: a function in `idl/<domain>/<contract>.adapters.ts`. */
export type Stub =
  /** Supplies a required field the source cannot: `(source) => value`. */
  | (StubBase & { readonly kind: "fill"; readonly path: FieldPath })
  /** Converts a field whose new type is not a widening of the old: `(value, source) => value`. */
  | (StubBase & { readonly kind: "convert"; readonly path: FieldPath; readonly sourcePath: FieldPath })
  /** Carries over enum values that have no mapping and no fallback: `(value) => value`. */
  | (StubBase & { readonly kind: "enum"; readonly enum: string; readonly values: readonly string[] })
  /** A `custom` change: `{ upgrade(source, draft), downgrade(source, draft) }` for the whole step. */
  | (StubBase & {
      readonly kind: "custom";
      readonly descriptions: readonly string[];
      /** Fields `draft` holds as the source version has them, unconverted (a `retype` beside the custom change, say), dotted. */
      readonly unconverted: readonly string[];
    });

interface StubBase {
  /** The exported name in the hand-written file: `upgradeV2_0$quality`, `customV3_0`, ... */
  readonly name: string;
  /** The version whose declared changes need the stub (the newer end of the step). */
  readonly edge: string;
  /** Versions the stub converts between; for `custom`, `up` is from → edge. */
  readonly direction: Direction;
  readonly source: string;
  readonly target: string;
  /** What the stub must do, for its doc comment. */
  readonly summary: string;
  /** The change that needs it. */
  readonly loc: SourceLocation;
}

/** How a value of one type becomes a value of another. */
export type Conversion =
  | { readonly kind: "same" }
  /** Passed through although the target may not hold it; the target's validator decides. */
  | { readonly kind: "unchecked" }
  | { readonly kind: "enum"; readonly table: EnumTable }
  | { readonly kind: "list"; readonly item: Conversion }
  /** A tuple: each position converted on its own. */
  | { readonly kind: "tuple"; readonly items: readonly Conversion[] }
  | { readonly kind: "map"; readonly value: Conversion }
  | ObjectConversion
  | { readonly kind: "union"; readonly tag: string; readonly variants: readonly { readonly value: string; readonly conversion: ObjectConversion }[] }
  /** An untagged union: the source variant `selector` selects converts into the target variant it pairs with. */
  | { readonly kind: "oneOf"; readonly variants: readonly { readonly selector: VariantSelector; readonly conversion: Conversion }[] }
  /** A field-level stub does the whole conversion. */
  | { readonly kind: "stub"; readonly stub: Stub }
  /** A recursive named type's conversion, one helper that `again` inside it calls back (`key` names the pair of types). */
  | { readonly kind: "named"; readonly key: string; readonly conversion: ObjectConversion }
  | { readonly kind: "again"; readonly key: string };

export interface ObjectConversion {
  readonly kind: "object";
  readonly fields: readonly {
    readonly name: string;
    /** The source may lack it (then the target does too) or hold null (kept as null). */
    readonly optional: boolean;
    readonly nullable: boolean;
    readonly conversion: Conversion;
  }[];
  /** Declared source fields the target does not have: reported as dropped when present. */
  readonly dropped: readonly string[];
  /** Undeclared keys are dropped too (strip projections, a kept object into one that does not keep). */
  readonly open: boolean;
  /** Both objects `unknown_fields: keep`: their unknown keys are carried over unchanged. */
  readonly keep?: KeptKeys;
}

/** What each value of an enum becomes in one step; values not listed stay as they are. */
export interface EnumTable {
  readonly enum: string;
  /** Values of the target come back to the values they came from when the step is reversed. */
  readonly reversible: boolean;
  /** Some values pass unmapped although the target lacks them; its validator rejects them. */
  readonly unchecked: boolean;
  /**
   * Source values the table rewrites. `lossy`: the value it becomes does not come back to it when
   * the step is reversed (a removed value going to the fallback, two values merged by a `map`), so
   * the adapter names it in `dropped`.
   */
  readonly entries: readonly {
    readonly from: string;
    readonly to: { readonly kind: "value"; readonly value: string } | { readonly kind: "stub"; readonly stub: Stub };
    readonly lossy: boolean;
  }[];
}

/** How a step builds one value of its target. */
export type ValuePlan =
  /** The source value at `path`, converted. */
  | { readonly kind: "source"; readonly path: FieldPath; readonly conversion: Conversion }
  /** A declared default for a value the source cannot have (an added or restored field). */
  | { readonly kind: "constant"; readonly value: JsonValue }
  /** `of` when the source has it; otherwise the fill. */
  | { readonly kind: "fill"; readonly of: ValuePlan; readonly fill: Fill }
  /** An object assembled field by field; present when the source object at `guard` is. */
  | { readonly kind: "object"; readonly guard?: FieldPath; readonly fields: readonly FieldPlan[]; readonly kept?: KeptKeys & { readonly source: FieldPath } }
  /** `of` as a one-item list. */
  | { readonly kind: "wrap"; readonly of: ValuePlan }
  /** The first item of the list `of`; `empty` when it has none (absent when undefined). */
  | { readonly kind: "head"; readonly of: ValuePlan; readonly empty?: Fill }
  | { readonly kind: "absent" }
  /** `of`, which the target requires but the source may lack (going down a `relax`): the target's validator decides. */
  | { readonly kind: "unchecked"; readonly of: ValuePlan }
  | Fill;

/** A kept object's unknown keys, carried over: the source object's own keys but `known` (either side's fields). */
export interface KeptKeys {
  readonly known: readonly string[];
  /**
   * Names the target object declares and the source's does not: an unknown key of the source by
   * such a name is not the target field's value (nothing says it is of its type), so it is dropped
   * and logged.
   */
  readonly claimed: readonly string[];
  /** The target types them (`additional`) more narrowly than the source: its validator decides. */
  readonly unchecked: boolean;
}

export type Fill = { readonly kind: "default"; readonly value: JsonValue } | { readonly kind: "stub"; readonly stub: Stub };

export interface FieldPlan {
  readonly name: string;
  readonly optional: boolean;
  readonly value: ValuePlan;
}

/** One direction of one version's changes: a function from one version's payload to another's. */
export interface Step {
  /** `upgradeV2_0` (the parent of 2.0 → 2.0) or `downgradeV2_0` (2.0 → its parent). */
  readonly name: string;
  readonly direction: Direction;
  readonly source: ResolvedVersion;
  readonly target: ResolvedVersion;
  /** The target's fields, envelope excluded. */
  readonly fields: readonly FieldPlan[];
  /** Source fields nothing carries over: reported as dropped when a payload has them. */
  readonly dropped: readonly FieldPath[];
  /** Under a contract-wide `unknown_fields: keep`, the root's unknown keys, carried over. */
  readonly kept?: KeptKeys & { readonly source: FieldPath };
  /** Declared defaults the step may put in, by target path, for tests and docs. */
  readonly defaults: readonly { readonly path: FieldPath; readonly value: JsonValue }[];
  readonly custom?: Extract<Stub, { kind: "custom" }>;
  /** source → target → source gives back every source value unchanged. */
  readonly exact: boolean;
  /** The result may fail the target's validation (unchecked conversions or hand-written code). */
  readonly unchecked: boolean;
}

export interface VersionAdapters {
  readonly version: ResolvedVersion;
  /** Versions from this one to the canonical one, both included. */
  readonly path: readonly string[];
  readonly toCanonical: readonly Step[];
  readonly fromCanonical: readonly Step[];
  /** vN → canonical → vN gives back every vN value unchanged. */
  readonly lossless: boolean;
  /** toCanonical may produce a value the canonical validator rejects, so decode validates it. */
  readonly revalidate: boolean;
  /** For `unknown_fields: strip`: the projection onto this version's declared fields. */
  readonly strip?: Conversion;
}

export interface ContractAdapters {
  readonly contract: Contract;
  readonly canonical: ResolvedVersion;
  /** Both directions of every version that has a parent, in version order. */
  readonly steps: readonly Step[];
  readonly versions: readonly VersionAdapters[];
  /** Every stub the steps call, sorted by name. */
  readonly stubs: readonly Stub[];
  readonly layout: StubsLayout;
}

/** Where the hand-written adapters live and how the two sides import each other. */
export interface StubsLayout {
  /** `idl/<domain>/<contract>.adapters.ts`, relative to the project root. */
  readonly file: string;
  /** Module specifier of the stubs file from `generated/<contract>/adapters.ts`. */
  readonly fromGenerated: string;
  /** Module specifier of `generated/<contract>/index.js` from the stubs file. */
  readonly toGenerated: string;
}

export interface ProjectAdapters {
  /** By contract name, in the project's order. */
  readonly contracts: ReadonlyMap<string, ContractAdapters>;
}
