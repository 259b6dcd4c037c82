// The one table of diagnostic codes. Codes are stable: tests and users match on them, so a code is
// never renamed or reused; messages may be reworded. `{name}` placeholders are filled from params.

export type Severity = "error" | "warning";

interface CodeSpec {
  readonly severity: Severity;
  readonly message: string;
}

export const DIAGNOSTIC_CODES = {
  // load
  "yaml-syntax": { severity: "error", message: "{detail}" },
  "duplicate-key": { severity: "error", message: "duplicate key '{key}'" },
  "alias-not-read": { severity: "error", message: "{where} is the alias *{alias}: treaty reads a contract as it is written, not through aliases (they work inside example values); write it out" },
  "merge-key": { severity: "error", message: "'<<' merges mappings only in YAML 1.1, and treaty reads YAML 1.2: write the entries out, or quote '<<' for a key of that name" },
  "read-failed": { severity: "error", message: "cannot read {what}: {detail}" },
  "write-failed": { severity: "error", message: "cannot write into {what}: {detail}; nothing was written" },
  "generate-locked": { severity: "error", message: "another treaty generate ({holder}) is writing into {what}; nothing was written: run again once it has finished (if no such process runs, remove {lock})" },
  "symlink-loop": { severity: "warning", message: "{link} is a symlink to {target}, a directory it is in: not followed (it would list the same contracts without end)" },
  "no-contracts": { severity: "error", message: "no contract files (*.yaml) found under {dir}" },
  // structure
  "unknown-key": { severity: "error", message: "unknown key '{key}' in {where}{suggestion}" },
  "missing-key": { severity: "error", message: "{where} needs '{key}'" },
  "invalid-value": { severity: "error", message: "{where} must be {expected}" },
  "invalid-name": { severity: "error", message: "{what} '{name}' must match {rule}" },
  "reserved-name": { severity: "error", message: "{what} name '{name}' is reserved: its output {output} is {why}; rename the {what}" },
  "file-name-mismatch": { severity: "warning", message: "contract '{name}' is in {file}; name the file {expected}" },
  // types
  "unknown-type": { severity: "error", message: "type '{name}' is not defined{suggestion}" },
  "unknown-format": { severity: "error", message: "format '{name}' is not one of {known}{suggestion}" },
  "constraint-not-applicable": { severity: "error", message: "'{key}' does not apply to type {type}{suggestion}" },
  "invalid-pattern": { severity: "error", message: "pattern is not a valid regular expression: {detail}" },
  "unsafe-pattern": { severity: "error", message: "pattern '{pattern}' {why}; validators run it on untrusted input, so write one that matches in linear time (no repeated part that can match the same text in two ways)" },
  "min-above-max": { severity: "error", message: "{min} ({minValue}) is above {max} ({maxValue})" },
  "empty-union": { severity: "error", message: "union needs at least one variant" },
  "union-overlap": { severity: "error", message: "variants {first} and {second} of this union overlap: {why}; an untagged union needs variants no value satisfies both of" },
  "empty-tuple": { severity: "error", message: "tuple needs at least one item" },
  "union-tag-conflict": { severity: "error", message: "variant '{variant}' declares the tag field '{tag}' itself" },
  "additional-needs-keep": { severity: "error", message: "'additional' types the unknown keys an object keeps, but this object has unknown_fields: {policy}; write unknown_fields: keep or leave it out (additional implies keep)" },
  "field-key-on-type": { severity: "error", message: "'{key}' applies to a whole field, not to {where}: set it on the field itself{note}" },
  "limit-exceeded": { severity: "error", message: "{what} is {actual}; treaty allows at most {max}" },
  "recursive-type": { severity: "error", message: "type '{name}' contains itself through required fields only ({path}), so no finite value of it exists; make one field on the way optional or nullable, or a list that may be empty" },
  "max-depth-not-recursive": { severity: "error", message: "type '{name}' has maxDepth, but it does not contain itself, so maxDepth bounds nothing; remove it" },
  "recursive-variant": { severity: "error", message: "variant '{value}' is the recursive type '{name}', and a recursive type cannot be a union variant yet: make the variant an object whose field holds a {name}" },
  // enums
  "empty-enum": { severity: "error", message: "enum '{name}' has no values" },
  "enum-value-without-meaning": { severity: "error", message: "enum value '{value}' of '{name}' needs a meaning" },
  "unknown-enum": { severity: "error", message: "enum '{name}' is not defined{suggestion}" },
  "unknown-enum-value": { severity: "error", message: "'{value}' is not a value of enum '{name}'{suggestion}" },
  "duplicate-enum-value": { severity: "error", message: "enum '{name}' already has the value '{value}'" },
  // fields
  "default-on-required": { severity: "error", message: "field '{field}' is required, so it cannot have a default; make it optional or drop the default" },
  "default-type-mismatch": { severity: "error", message: "default of '{field}' does not match its type: {detail}" },
  "nullable-without-meaning": { severity: "error", message: "nullable field '{field}' must say what null means (nullable: <meaning>)" },
  "reserved-field": { severity: "error", message: "field '{field}' is reserved for the envelope; set `envelope: none` to declare it yourself" },
  // versions and changes
  "bad-version-key": { severity: "error", message: "version '{version}' must be MAJOR.MINOR, e.g. \"1.0\"" },
  "versions-out-of-order": { severity: "error", message: "version {version} comes after {previous}; list versions in ascending order" },
  "duplicate-version": { severity: "error", message: "version {version} is declared twice" },
  "first-version-changes": { severity: "error", message: "the first version ({version}) must list its fields; there is nothing for changes to apply to" },
  "fields-and-changes": { severity: "error", message: "version {version} lists both fields and changes; use one" },
  "unknown-version": { severity: "error", message: "version '{version}' of '{contract}' is not defined{suggestion}" },
  "unknown-field": { severity: "error", message: "field '{path}' does not exist at {version}{suggestion}" },
  "unaddressable-field": { severity: "error", message: "'{path}' cannot name the field '{name}': a dotted path splits names at '.' (and at '[]' in agent paths), so a field with either in its name cannot be addressed" },
  "field-exists": { severity: "error", message: "field '{path}' already exists at {version}" },
  "rename-target-exists": { severity: "error", message: "cannot rename '{from}' to '{to}': '{to}' already exists at {version}" },
  "rename-across-objects": { severity: "error", message: "rename '{from}' → '{to}' moves the field to another object; rename keeps the parent" },
  "not-an-object": { severity: "error", message: "'{path}' is not an inline object, so it has no field '{field}'" },
  "change-no-effect": { severity: "error", message: "{op} '{path}' changes nothing: the field is already {state}" },
  "unknown-change": { severity: "error", message: "a change needs one operation key (add, remove, rename, require, relax, retype, constrain, enum, nest, hoist, wrap, head, custom){suggestion}" },
  "invalid-move": { severity: "error", message: "{op} '{from}' → '{to}' {reason}" },
  // hand-written stubs: adapters (idl/<domain>/<contract>.adapters.ts) and agents (<agent>.agent.ts)
  "missing-stub": { severity: "error", message: "{what} '{name}' is missing from {file}; run 'treaty generate' to add it" },
  "orphan-stub": { severity: "warning", message: "{what} '{name}' is not needed any more; delete it" },
  // contracts and rules
  "duplicate-contract": { severity: "error", message: "contract '{name}' is also defined in {other}" },
  "recursive-contract": { severity: "error", message: "contract '{name}' contains itself ({path}); recursive contracts are not supported" },
  "name-collision": { severity: "error", message: "contracts '{name}' and '{other}' both generate the type name {typeName}; rename one" },
  "unknown-contract": { severity: "error", message: "contract '{name}' is not defined{suggestion}" },
  "rule-type-mismatch": { severity: "error", message: "rule {rule} needs '{path}' to be {expected}" },
  // versions over time
  "bump-too-small": { severity: "error", message: "{version} is a minor version of a contract that promises {promise} compatibility, but {failure}: {reason}; make it {major}.0 or keep the change compatible" },
  // Breaks in a direction the contract does not promise, reported with --against for new versions only.
  "backward-incompatible": { severity: "warning", message: "{failure}: {reason} (compatibility: {promise} does not promise this direction)" },
  "forward-incompatible": { severity: "warning", message: "{failure}: {reason} (compatibility: {promise} does not promise this direction)" },
  "published-version-changed": { severity: "error", message: "published version {version} differs from {ref}: {reason}; publish the change as a new version (only a version that is `status: draft` at {ref} may change)" },
  "published-version-removed": { severity: "error", message: "version {version} of '{contract}' is published at {ref} but no longer defined" },
  // lint: the seed's anti-patterns; each can be turned off per contract or field with `lint: { code: reason }`
  "everything-optional": { severity: "warning", message: "every field of {version} is optional: consumers must guess which states exist; make the core required" },
  "default-on-control-field": { severity: "warning", message: "control field '{field}' has a default: a producer that omits it gets a value it never chose" },
  "open-string-enum": { severity: "warning", message: "'{field}' is a control field typed as an open string: typos become states; use a closed enum" },
  "unbounded-string": { severity: "warning", message: "string '{field}' has no maxLength, pattern or format: bound it, or pass large content as a ref<...>" },
  "unbounded-list": { severity: "warning", message: "list '{field}' has no maxItems: a caller can send any number of items, and every reader pays for each; bound it" },
  "blob-not-ref": { severity: "warning", message: "'{field}' looks like content carried inline; pass it by reference (ref<scheme>)" },
  "no-owner": { severity: "warning", message: "contract '{name}' has no owner: nobody defines its semantics, versions and deprecation" },
  "placeholder-meaning": { severity: "warning", message: "{where} still says '{placeholder}': write what it means (treaty import left it for you)" },
  "unbounded-json": { severity: "warning", message: "json '{field}' of a command has no maxDepth or maxBytes: a caller can send a value of any size; bound it" },
  "sensitive-value-in-schema": { severity: "warning", message: "{where} holds what looks like {what}; schemas and examples are sent to LLM providers" },
  "inexact-multiple-of": {
    severity: "warning",
    message:
      "multipleOf {step} of '{field}' is not exact in binary floating point: as in Ajv, a value passes only when value / {step} is an integer there, so {value} fails; use an int of the smallest unit (cents for prices), or a step that is a power of two",
  },
  "unknown-lint-rule": { severity: "error", message: "'{name}' is not a lint rule{suggestion}" },
  "lint-ignore-without-reason": { severity: "error", message: "turning off '{name}' needs a reason" },
  // treaty's own settings (treaty.config.json or package.json's `treaty` key)
  "json-syntax": { severity: "error", message: "not valid JSON: {detail}" },
  "config-conflict": { severity: "error", message: "treaty is configured both here and in {file}; keep one" },
  "out-dir-overlaps": { severity: "error", message: "the output directory '{out}' {reason}: treaty removes the files it no longer generates there, so it needs a directory of its own" },
  // the command line (no location; exit status 2)
  "missing-command": { severity: "error", message: "no command given; the commands are {known}" },
  "unknown-command": { severity: "error", message: "unknown command '{name}'{suggestion}; the commands are {known}" },
  "unknown-flag": { severity: "error", message: "unknown flag '{flag}' for {command}{suggestion}; {command} takes {known}" },
  "flag-needs-value": { severity: "error", message: "{flag} needs a value: {flag} <value>, or {flag}=<value> for a value starting with '-'" },
  "flag-takes-no-value": { severity: "error", message: "{flag} takes no value (got '{value}')" },
  "flag-value-not-allowed": { severity: "error", message: "{flag} does not take '{value}'{suggestion}; it takes {allowed}" },
  "flag-required": { severity: "error", message: "{command} needs {flag}" },
  "flag-repeated": { severity: "error", message: "{flag} is given more than once" },
  "flags-conflict": { severity: "error", message: "{flag} cannot be given with {other}: {reason}" },
  "argument-count": { severity: "error", message: "'{command}' takes {expected}; got {got}" },
  // LLM projections (llm.ts): a provider's documented limits, checked at compile time
  "effect-not-command": { severity: "error", message: "'effect' says what a command does to state, and this contract's kind is {kind}: set kind: command, or remove effect" },
  "llm-limit-exceeded": { severity: "error", message: "{provider} allows at most {max} {limit}; this has {actual}: simplify the contract {fix}" },
  "llm-union-overlap": { severity: "error", message: "variants {first} and {second} of this union cannot be told apart as {provider} is told to write them ({why}), so a reply could not be read back as the variant meant: give the union a tag, or make the variants differ, {fix}" },
  "llm-name-invalid": { severity: "error", message: "the {provider} name '{name}' must match {rule}: shorten the contract name {fix}" },
  // agent contracts (*.agent.yaml)
  "duplicate-agent": { severity: "error", message: "agent '{name}' is also defined in {other}" },
  "duplicate-rule": { severity: "error", message: "custom rule '{name}' has the name of {other}: each is a function of the agent's hand-written file, so each needs its own name" },
  "duplicate-tool": { severity: "error", message: "tool name '{name}' is also the tool of agent '{other}' ({file}); models call tools by name, so each needs its own" },
  "unknown-agent": { severity: "error", message: "agent '{name}' is not defined{suggestion}" },
  "threshold-below-floor": { severity: "error", message: "confidence threshold {threshold} is below {floor}, the floor of {reason}; a threshold may raise its floor, never lower it" },
  "not-a-list": { severity: "error", message: "'{path}' of {where} is {type}, not a list, so it has no items ('{path}[]')" },
  "path-type-mismatch": { severity: "error", message: "'{path}' of {where} is {type}, but '{otherPath}' of {otherWhere} is {otherType}" },
  "not-provided": { severity: "error", message: "agent '{agent}' does not provide '{path}'{suggestion}" },
  "consumes-cycle": { severity: "error", message: "agent '{name}' consumes what it provides itself ({path}): no session can run it first" },
  "confidence-missing": { severity: "error", message: "agent '{name}' is mutation_irreversible: its output must carry a confidence score; name the field in `confidence: { field }`" },
  "confidence-not-a-score": { severity: "error", message: "confidence field '{path}' of {where} is {type}; it must be a required number with min 0 and max 1" },
  "no-intent-type": { severity: "error", message: "{where} has no field with `role: intent_type` (an enum), so `serves` names nothing" },
  // treaty import (JSON Schema and OpenAPI into the IDL)
  "import-not-a-schema": { severity: "error", message: "{file} is not a schema document (it holds {got}); treaty import reads a JSON Schema or an OpenAPI description" },
  "import-not-expressible": { severity: "warning", message: "{what} at {pointer} cannot be written in treaty's IDL: {consequence}" },
  "import-recursive": { severity: "warning", message: "{pointer} refers back to {name}, which contains it; only named object types may be recursive in the IDL: where it refers back it is written as json, any JSON value" },
  "import-root-not-object": { severity: "error", message: "{pointer} ({name}) is not an object schema; a contract's payload is an object: import the definitions that use it" },
  "import-unknown-definition": { severity: "error", message: "the source has no definition '{name}'{suggestion}" },
  "import-no-root": { severity: "error", message: "{file} has no root schema and no definitions ($defs, definitions or components.schemas) to import" },
  "import-name-clash": { severity: "error", message: "definitions {first} and {second} would both be contract '{name}'; import each alone with --defs and --contract <name>" },
  "import-provider-left-out": { severity: "warning", message: "{pointer} becomes a contract past {provider}'s limits ({detail}): its llm providers leave {provider} out" },
  "import-file-exists": { severity: "error", message: "{file} exists; treaty import never overwrites a contract (remove it, or import into another --out)" },
  // treaty compat
  "compat-not-comparable": { severity: "error", message: "cannot compare {what}: {reason}" },
  // examples
  "invalid-example": { severity: "error", message: "an example needs exactly one of 'valid' or 'invalid'" },
  "example-expect-missing": { severity: "error", message: "an invalid example needs `expect: { path, code }`" },
  "no-valid-value": { severity: "warning", message: "version {version} has no valid example and treaty cannot synthesize one ({reason}): add a valid example, or its generated tests check only its examples" },
} as const satisfies Record<string, CodeSpec>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** The lint rules, which `lint: { <rule>: <reason> }` may turn off. */
export const LINT_RULES = [
  "everything-optional",
  "default-on-control-field",
  "open-string-enum",
  "unbounded-string",
  "unbounded-list",
  "blob-not-ref",
  "no-owner",
  "sensitive-value-in-schema",
  "placeholder-meaning",
  "unbounded-json",
  "inexact-multiple-of",
] as const satisfies readonly DiagnosticCode[];
export type LintRule = (typeof LINT_RULES)[number];
