// The typed intermediate model. `resolve` builds it from YAML; every later stage reads only this.
// Raw YAML nodes never get past `resolve`.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A 1-based position in a source file, taken from the YAML node it came from. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/**
 * Where the tokens inside an item stand, by key (`type`, `default`, `deprecated.use`, `paths.1`,
 * `add.A`): `loc` is the item (a field's name, a change, a rule), which in block style is another
 * line than the value a diagnostic names. Filled where the resolver reads the key; see `locAt`.
 */
export type KeyLocations = Readonly<Record<string, SourceLocation>>;

/** The location of `key` inside `item`, or the item's own where that key was not recorded. */
export const locAt = (item: { readonly loc: SourceLocation; readonly locs?: KeyLocations }, key: string): SourceLocation =>
  (item.locs !== undefined && Object.hasOwn(item.locs, key) ? item.locs[key] : undefined) ?? item.loc;

export type StringFormat =
  | "date-time"
  | "date"
  | "uuid"
  | "uri"
  | "email"
  | "uri-template"
  | "byte"
  | "int64"
  | "hostname"
  | "ipv4"
  | "ipv6"
  | "duration"
  | "time";
export const STRING_FORMATS: readonly StringFormat[] = ["date-time", "date", "uuid", "uri", "email", "uri-template", "byte", "int64", "hostname", "ipv4", "ipv6", "duration", "time"];

export type Sensitivity = "pii" | "secret" | "internal";

export interface StringType {
  readonly kind: "string";
  /** Lengths count Unicode code points, as JSON Schema does. */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An ECMAScript pattern, matched with the `u` flag and not anchored (JSON Schema semantics). */
  readonly pattern?: string;
  readonly format?: StringFormat;
}

export interface NumericType {
  readonly kind: "int" | "number";
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: number;
  readonly exclusiveMax?: number;
  readonly multipleOf?: number;
}

export interface BoolType {
  readonly kind: "bool";
}

/** An RFC 3339 date-time string. */
export interface TimestampType {
  readonly kind: "timestamp";
}

/** A string `scheme://...`: an artifact passed by reference, never as a blob. */
export interface RefType {
  readonly kind: "ref";
  readonly scheme: string;
}

export interface ListType {
  readonly kind: "list";
  readonly of: TypeNode;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly unique?: boolean;
}

/** An object with string keys and values of one type. */
export interface MapType {
  readonly kind: "map";
  readonly of: TypeNode;
  /**
   * `keys: { sensitivity: none }`: the keys are names the contract chose, not data, so paths,
   * issues, re-asks and records may show them. Absent: they are masked everywhere.
   */
  readonly keysVisible?: true;
  /** `keys: { pattern }`: every key matches it (an ECMAScript pattern, `u` flag, not anchored). */
  readonly keyPattern?: string;
}

/**
 * What a reader does with keys an object does not declare: fail (`reject`), drop them on decode
 * (`strip`), or carry them through validation, adapters and encode unchanged (`keep`).
 */
export type UnknownFields = "reject" | "strip" | "keep";
export const UNKNOWN_FIELDS: readonly UnknownFields[] = ["reject", "strip", "keep"];

/** An object's own unknown-key policy; absent: the contract's (`objectPolicy` in ir/open-objects.ts). */
export interface OpenObject {
  readonly unknownFields?: UnknownFields;
  /** The type every unknown key's value must have; only with `unknownFields: "keep"` (resolve sets it). */
  readonly additional?: TypeNode;
}

export interface ObjectType extends OpenObject {
  readonly kind: "object";
  readonly fields: readonly Field[];
}

/**
 * Any JSON value. `maxDepth` bounds the nesting of arrays and objects (a scalar is depth 0),
 * `maxBytes` the UTF-8 length of its `JSON.stringify` form.
 */
export interface JsonType {
  readonly kind: "json";
  readonly maxDepth?: number;
  readonly maxBytes?: number;
}

/** A fixed-length array: position `i` holds a value of `items[i]`. */
export interface TupleType {
  readonly kind: "tuple";
  readonly items: readonly TypeNode[];
}

/** A discriminated union: every variant is an object carrying `tag` with its own constant value. */
export interface UnionType {
  readonly kind: "union";
  readonly tag: string;
  readonly variants: readonly UnionVariant[];
}

export interface UnionVariant {
  /** The value of the tag field that selects this variant. */
  readonly value: string;
  /** The variant's fields, without the tag field (emitters add it as a constant). */
  readonly type: ObjectType | NamedRefType;
  readonly loc: SourceLocation;
}

/**
 * An untagged union: a value is exactly one of the variants, which `check` proves disjoint (by JSON
 * type, constant values, or a required field), so a validator selects the variant before checking it.
 * Nested untagged unions are flattened into their parent by `resolve`.
 */
export interface OneOfType {
  readonly kind: "oneOf";
  readonly variants: readonly { readonly type: TypeNode; readonly loc: SourceLocation }[];
}

export interface ConstType {
  readonly kind: "const";
  readonly value: string | number | boolean | null;
}

/** A reference to an enum of the contract, resolved per version in `ResolvedVersion.enums`. */
export interface EnumRefType {
  readonly kind: "enum";
  readonly name: string;
}

/** A reference to a named object type of the contract, in `ResolvedVersion.types`. */
export interface NamedRefType {
  readonly kind: "named";
  readonly name: string;
}

/** `other.contract@MAJOR`: any version of that major this build knows (with its envelope). */
export interface ContractRefType {
  readonly kind: "contract";
  readonly contract: string;
  readonly major: number;
}

export type TypeNode =
  | StringType
  | NumericType
  | BoolType
  | TimestampType
  | RefType
  | ListType
  | MapType
  | JsonType
  | TupleType
  | ObjectType
  | UnionType
  | OneOfType
  | ConstType
  | EnumRefType
  | NamedRefType
  | ContractRefType;

export interface Deprecation {
  readonly since: string;
  readonly use?: string;
}

export interface Field {
  /** Any non-empty printable string (`"$schema"`, `"io.example/x"`): emitters quote what is not an identifier. */
  readonly name: string;
  readonly type: TypeNode;
  readonly optional: boolean;
  /** The meaning of null when the field is nullable (`nullable: redacted by policy`). */
  readonly nullable?: string;
  /** Only on optional fields; documented, applied only when adapting to the canonical model. */
  readonly default?: JsonValue;
  readonly description?: string;
  readonly sensitivity?: Sensitivity;
  readonly deprecated?: Deprecation;
  /** A semantic role, e.g. `idempotency_key`. */
  readonly role?: string;
  /** Lint rules turned off for this field, each with the reason a reviewer reads. */
  readonly lintIgnore?: LintIgnores;
  readonly loc: SourceLocation;
  readonly locs?: KeyLocations;
}

/** Lint rule code → why it does not apply here. */
export type LintIgnores = ReadonlyMap<string, { readonly reason: string; readonly loc: SourceLocation }>;

export interface EnumValue {
  readonly name: string;
  readonly meaning: string;
  readonly loc: SourceLocation;
}

export interface EnumDef {
  readonly name: string;
  readonly description?: string;
  readonly values: readonly EnumValue[];
  /** A reader that meets an unknown value reads this one instead of failing. */
  readonly fallback?: string;
  readonly loc: SourceLocation;
}

export interface NamedType extends OpenObject {
  readonly name: string;
  readonly description?: string;
  readonly fields: readonly Field[];
  /**
   * `maxDepth:` how many times a recursive type may nest inside itself in one value (validators
   * report `depth` beyond it); absent: `DEFAULT_MAX_DEPTH`. Meaningful only on recursive types.
   */
  readonly maxDepth?: number;
  readonly loc: SourceLocation;
  /** `maxDepth`: where that key is written. */
  readonly locs?: KeyLocations;
}

/**
 * Semantic rules JSON Schema cannot express; field paths are dotted, from the payload root.
 * `locs` holds `paths.<i>`: where the i-th path stands, in the order first, second / fields / if, then.
 */
export type Rule = (
  | { readonly kind: "before"; readonly first: string; readonly second: string }
  | { readonly kind: "exclusive"; readonly fields: readonly string[] }
  | { readonly kind: "requires"; readonly if: string; readonly then: readonly string[] }
) & { readonly loc: SourceLocation; readonly locs?: KeyLocations };

export interface Example {
  readonly version: string;
  readonly valid: boolean;
  readonly value: JsonValue;
  /** For an invalid example: where and why it must fail. */
  readonly expect?: { readonly path: string; readonly code: string };
  /** What the example shows; generated tests are named after it. */
  readonly description?: string;
  readonly loc: SourceLocation;
  /** `value<pointer>` (`value/x`): where each scalar of `value` is written (not those an alias expands). */
  readonly locs?: KeyLocations;
}

/**
 * A change as declared in `changes:` (kept for the compatibility checker and adapters). `locs`:
 * `path` (the operation's value), `from`, `to`, `name`, `fallback`, and an enum change's `add.<V>`,
 * `remove.<V>`, `map.<V>` (the key) and `map.<V>.to` (its value).
 */
export type Change = (
  | { readonly op: "add"; readonly path: string; readonly field: Field; readonly loc: SourceLocation }
  | { readonly op: "remove"; readonly path: string; readonly default?: JsonValue; readonly loc: SourceLocation }
  | { readonly op: "rename"; readonly from: string; readonly to: string; readonly loc: SourceLocation }
  | { readonly op: "require"; readonly path: string; readonly default?: JsonValue; readonly loc: SourceLocation }
  | {
      readonly op: "relax";
      readonly path: string;
      /** Fills data converted to an older version, where the field is required, when it is absent. */
      readonly default?: JsonValue;
      readonly loc: SourceLocation;
    }
  | { readonly op: "retype"; readonly path: string; readonly type: TypeNode; readonly loc: SourceLocation }
  | { readonly op: "constrain"; readonly path: string; readonly constraints: Readonly<Record<string, JsonValue>>; readonly loc: SourceLocation }
  | {
      readonly op: "enum";
      readonly name: string;
      readonly add: readonly EnumValue[];
      readonly remove: readonly string[];
      readonly map: Readonly<Record<string, string>>;
      readonly fallback?: string;
      readonly loc: SourceLocation;
    }
  | { readonly op: "custom"; readonly description: string; readonly loc: SourceLocation }
  /** Moves a field into an object below its parent (`to` is deeper than `from`); missing objects on the way are created. */
  | { readonly op: "nest"; readonly from: string; readonly to: string; readonly loc: SourceLocation }
  /** Moves a field out to an enclosing object (`to` is shallower than `from`); objects left empty are removed. */
  | { readonly op: "hoist"; readonly from: string; readonly to: string; readonly loc: SourceLocation }
  /** A field of type T becomes a list of T; `default` is what a reader of the older version gets for an empty list. */
  | {
      readonly op: "wrap";
      readonly path: string;
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly unique?: boolean;
      readonly default?: JsonValue;
      readonly loc: SourceLocation;
    }
  /** A list field becomes its first item; `default` is the value when the list is empty. */
  | { readonly op: "head"; readonly path: string; readonly default?: JsonValue; readonly loc: SourceLocation }
) & { readonly locs?: KeyLocations };

export interface ResolvedVersion {
  /** "MAJOR.MINOR" */
  readonly version: string;
  readonly major: number;
  readonly minor: number;
  readonly status: "published" | "draft";
  /** The full set of fields at this version (envelope fields excluded; see `rootFields`). */
  readonly fields: readonly Field[];
  readonly enums: ReadonlyMap<string, EnumDef>;
  readonly types: ReadonlyMap<string, NamedType>;
  readonly rules: readonly Rule[];
  readonly examples: readonly Example[];
  /** The version these changes apply to; absent for a version that lists its fields. */
  readonly from?: string;
  readonly changes: readonly Change[];
  readonly loc: SourceLocation;
}

/** The LLM providers treaty projects a contract to (`llm.ts`, `llm/<provider>.json`). */
export type LlmProvider = "openai" | "anthropic" | "gemini" | "mcp";
export const LLM_PROVIDERS: readonly LlmProvider[] = ["openai", "anthropic", "gemini", "mcp"];

export type ContractKind = "command" | "result" | "event" | "error" | "task";
export const CONTRACT_KINDS: readonly ContractKind[] = ["command", "result", "event", "error", "task"];

/**
 * The directions a minor version promises against every earlier version of its major:
 * backward (new readers read old data), forward (old readers read new data), full (both), none.
 */
export type Compatibility = "backward" | "forward" | "full" | "none";

export const COMPATIBILITY_LEVELS: readonly Compatibility[] = ["backward", "forward", "full", "none"];

/**
 * What a command does to the state it acts on, for the tools it becomes (MCP's annotations):
 * `read-only` changes nothing, `additive` adds or updates without destroying, `destructive` may
 * delete or overwrite.
 */
export type CommandEffect = "read-only" | "additive" | "destructive";

export const COMMAND_EFFECTS: readonly CommandEffect[] = ["read-only", "additive", "destructive"];

export interface Contract {
  /** Dotted lower-case name, unique in the project. */
  readonly name: string;
  /** Path of the source file relative to the project root, with `/` separators. */
  readonly file: string;
  readonly summary?: string;
  readonly description?: string;
  readonly owner?: string;
  readonly kind?: ContractKind;
  /** A command's declared effect (`effect:`); only a `command` has one. */
  readonly effect?: CommandEffect;
  /** Lint rules turned off for the whole contract, each with its reason. */
  readonly lintIgnore?: LintIgnores;
  /** What a reader does with keys it does not know, in every object that does not set its own. */
  readonly unknownFields: UnknownFields;
  /** What a minor version promises; breaks in a direction it does not promise are warnings with `--against`. */
  readonly compatibility: Compatibility;
  /** `embedded`: `contract` and `version` are constants in every payload. */
  readonly envelope: "embedded" | "none";
  /** The version business code sees; by default the newest. */
  readonly canonical: string;
  /** The providers the contract projects to: all of them unless `llm: { providers: [...] }` opts out. */
  readonly llm: { readonly providers: readonly LlmProvider[] };
  /** Sorted by (major, minor). */
  readonly versions: readonly ResolvedVersion[];
  readonly loc: SourceLocation;
  /** `unknown_fields`: where the contract sets it, for a diagnostic about changing it. */
  readonly locs?: KeyLocations;
}

export interface Project {
  /** Sorted by name. */
  readonly contracts: readonly Contract[];
  /** Sorted by name; absent in a model built without agent files. */
  readonly agents?: readonly Agent[];
}

// Agent contracts (`idl/<domain>/<agent>.agent.yaml`): an agent's input and output contracts, the
// action it takes, and what it promises to and takes from the other agents of a session.

export type AgentAction = "query" | "mutation_reversible" | "mutation_irreversible";
export const AGENT_ACTIONS: readonly AgentAction[] = ["query", "mutation_reversible", "mutation_irreversible"];

/** `name@MAJOR`: the contract an agent reads or writes, at the newest version of that major. */
export interface AgentContractRef {
  readonly contract: string;
  readonly major: number;
  readonly loc: SourceLocation;
}

/**
 * A field path into a payload: dotted names, `[]` after a list field stepping into its items
 * (`offers[].offer_id`). Envelope fields are not addressed.
 */
export interface AgentPath {
  readonly path: string;
  readonly loc: SourceLocation;
}

export interface AgentConsumes {
  /** The path of this agent's input. */
  readonly path: AgentPath;
  /** The agent whose earlier output the value must equal. */
  readonly from: string;
  /** Where `from` is written: an unknown agent is reported there. */
  readonly fromLoc: SourceLocation;
  /** The path that agent provides. */
  readonly as: AgentPath;
  readonly loc: SourceLocation;
}

export interface AgentIntent {
  readonly contract: AgentContractRef;
  /** This agent's input path → the intent's path whose value it must keep. */
  readonly lock: readonly { readonly input: AgentPath; readonly intent: AgentPath }[];
  /** The intent types (values of the intent's `role: intent_type` enum field) the agent serves; empty: all. */
  readonly serves: readonly { readonly value: string; readonly loc: SourceLocation }[];
  readonly loc: SourceLocation;
}

/** A semantic check of the input: a contract rule form, or a named check written by hand beside the agent. */
export type AgentRule = Rule | { readonly kind: "custom"; readonly name: string; readonly description?: string; readonly loc: SourceLocation };

export interface Agent {
  /** Dotted lower-case name, unique in the project. */
  readonly name: string;
  /** The name models call it by; unique in the project. */
  readonly tool: string;
  readonly file: string;
  readonly summary?: string;
  readonly description?: string;
  readonly owner?: string;
  readonly input: AgentContractRef;
  readonly output: AgentContractRef;
  readonly action: AgentAction;
  /** A reference agent (OTAIP's stage 0) answers other agents' lookups: its floor is at least 0.90. */
  readonly reference: boolean;
  /** Absent: the floor of the action, and no output field carries a confidence. */
  readonly confidence?: { readonly threshold?: number; readonly field?: AgentPath; readonly loc: SourceLocation };
  readonly provides: readonly AgentPath[];
  readonly consumes: readonly AgentConsumes[];
  readonly intent?: AgentIntent;
  readonly rules: readonly AgentRule[];
  readonly loc: SourceLocation;
  /** `tool`: where its value is written. */
  readonly locs?: KeyLocations;
}
