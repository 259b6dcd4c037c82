// One direction of one version's changes, as a plan for the target payload. The changes are
// replayed on a tree of slots that remember where each value comes from (a source path, a
// default, a stub); the target's fields are then planned from the slots, with a conversion
// wherever the source type differs from the target type.
import type { Change, Contract, Field, JsonValue, OpenObject, ResolvedVersion, SourceLocation } from "../ir/model.js";
import { rootFields } from "../ir/envelope.js";
import { objectPolicy } from "../ir/open-objects.js";
import { versionId } from "../ir/names.js";
import type { VersionModel } from "../resolve/changes.js";
import { fieldAt, fieldAtSegments } from "../resolve/changes.js";
import { claimedNames, convertField, keptKeysWiden, type ConvertContext } from "./convert.js";
import { mapEnumValues } from "./enum-mapping.js";
import type { Conversion, Direction, EnumTable, FieldPath, FieldPlan, Fill, KeptKeys, Step, Stub, ValuePlan } from "./model.js";
import type { ReplayedChange } from "./replay.js";

/** A value the step must put in: a declared default, or a stub when there is none. */
type Pending = { readonly kind: "default"; readonly value: JsonValue } | { readonly kind: "stub"; readonly why: string; readonly loc: SourceLocation };

type Origin =
  | { readonly kind: "source"; readonly path: FieldPath }
  | { readonly kind: "object"; readonly guard?: FieldPath; readonly slots: Slot[] }
  | { readonly kind: "constant"; readonly value: JsonValue }
  | { readonly kind: "fill"; readonly of: Origin; readonly fill: Pending }
  | { readonly kind: "wrap"; readonly of: Origin }
  | { readonly kind: "head"; readonly of: Origin; readonly empty?: Pending }
  | { readonly kind: "absent" }
  | { readonly kind: "pending"; readonly fill: Pending };

interface Slot {
  name: string;
  origin: Origin;
}

export interface StepInput {
  readonly contract: Contract;
  /** The version whose changes the step applies or reverses. */
  readonly edge: ResolvedVersion;
  readonly parent: ResolvedVersion;
  /** The edge's declared changes with the models around them; empty when it re-lists its fields. */
  readonly replayed: readonly ReplayedChange[];
  readonly direction: Direction;
}

const isObject = (value: JsonValue): value is { [key: string]: JsonValue } => typeof value === "object" && value !== null && !Array.isArray(value);

const fieldsOf = (model: Pick<VersionModel, "fields">, path: FieldPath): readonly Field[] => {
  if (path.length === 0) return model.fields;
  const field = fieldAtSegments(model.fields, path);
  return field?.type.kind === "object" ? field.type.fields : [];
};

const split = (path: string): string[] => path.split(".");

const quote = (path: FieldPath): string => `\`${path.join(".")}\``;

/** The slot tree, edited change by change. */
const createSlots = (source: ResolvedVersion) => {
  const root: Slot[] = source.fields.map((f) => ({ name: f.name, origin: { kind: "source", path: [f.name] } }));

  /**
   * Turns a slot holding a whole source object (or an object default) into one slot per field, so
   * a change can edit inside it. Other origins stay whole; planning converts them by type.
   */
  const open = (slot: Slot, declared: readonly Field[]): Slot[] | undefined => {
    const origin = slot.origin;
    if (origin.kind === "object") return origin.slots;
    let slots: Slot[];
    if (origin.kind === "source") {
      const sourceFields = fieldsOf(source, origin.path);
      slots = declared.map((f) => ({
        name: f.name,
        origin: sourceFields.some((s) => s.name === f.name) ? { kind: "source", path: [...origin.path, f.name] } : { kind: "absent" },
      }));
      slot.origin = { kind: "object", guard: origin.path, slots };
    } else if (origin.kind === "constant" && isObject(origin.value)) {
      const value = origin.value;
      slots = declared.map((f) => ({ name: f.name, origin: f.name in value ? { kind: "constant", value: value[f.name]! } : { kind: "absent" } }));
      slot.origin = { kind: "object", slots };
    } else return undefined;
    return slots;
  };

  /** The slots of the object at `parent`, as declared in `model`; missing objects are created when `create`. */
  const objectAt = (parent: FieldPath, model: Pick<VersionModel, "fields">, create = false): Slot[] | undefined => {
    let slots = root;
    for (let depth = 0; depth < parent.length; depth++) {
      const name = parent[depth]!;
      let slot = slots.find((s) => s.name === name);
      if (!slot) {
        if (!create) return undefined;
        slot = { name, origin: { kind: "object", slots: [] } };
        slots.push(slot);
      }
      const opened = open(slot, fieldsOf(model, parent.slice(0, depth + 1)));
      if (!opened) return undefined;
      slots = opened;
    }
    return slots;
  };

  const take = (path: FieldPath, model: VersionModel): Slot | undefined => {
    const siblings = objectAt(path.slice(0, -1), model);
    const index = siblings?.findIndex((s) => s.name === path[path.length - 1]) ?? -1;
    return index < 0 ? undefined : siblings!.splice(index, 1)[0];
  };

  return {
    root,
    insert: (path: FieldPath, origin: Origin, model: VersionModel): void => {
      objectAt(path.slice(0, -1), model, true)?.push({ name: path[path.length - 1]!, origin });
    },
    remove: (path: FieldPath, model: VersionModel): void => void take(path, model),
    move: (from: FieldPath, to: FieldPath, model: VersionModel): void => {
      const slot = take(from, model);
      if (slot) objectAt(to.slice(0, -1), model, true)?.push({ name: to[to.length - 1]!, origin: slot.origin });
    },
    update: (path: FieldPath, model: VersionModel, edit: (origin: Origin) => Origin): void => {
      const slot = objectAt(path.slice(0, -1), model)?.find((s) => s.name === path[path.length - 1]);
      if (slot) slot.origin = edit(slot.origin);
    },
  };
};

type Slots = ReturnType<typeof createSlots>;

/** What a list that may be empty becomes when only its first item is kept. */
const emptyHead = (declared: JsonValue | undefined, scalar: Field | undefined, list: Field | undefined, why: string, loc: SourceLocation): Pending | undefined => {
  if (declared !== undefined) return { kind: "default", value: declared };
  if (scalar?.optional || (list?.type.kind === "list" && (list.type.minItems ?? 0) >= 1)) return undefined;
  return { kind: "stub", why, loc };
};

/** Applies one change in `direction`; `current` is the model the slots match, `next` the one they move to. */
const applyToSlots = (slots: Slots, change: Change, direction: Direction, current: VersionModel, next: VersionModel, edge: string): void => {
  const up = direction === "up";
  const newField = (path: FieldPath, declared: JsonValue | undefined, why: string): Origin => {
    const field = fieldAtSegments(next.fields, path);
    if (declared !== undefined) return { kind: "constant", value: declared };
    if (field?.optional) return { kind: "absent" };
    return { kind: "pending", fill: { kind: "stub", why, loc: change.loc } };
  };
  switch (change.op) {
    case "add":
      if (up) slots.insert(split(change.path), newField(split(change.path), change.field.default, `\`add: ${change.path}\` declares a required field`), current);
      else slots.remove(split(change.path), current);
      return;
    case "remove":
      if (up) slots.remove(split(change.path), current);
      else slots.insert(split(change.path), newField(split(change.path), change.default, `\`remove: ${change.path}\` (${edge}) declares no default`), current);
      return;
    case "rename":
    case "nest":
    case "hoist": {
      const older = split(change.from);
      // A rename's `to` may name the field alone; it keeps the parent.
      const newer = change.op === "rename" ? [...older.slice(0, -1), split(change.to).pop()!] : split(change.to);
      if (up) slots.move(older, newer, current);
      else slots.move(newer, older, current);
      return;
    }
    case "require":
    case "relax":
      // Optional → required in the direction of travel: older data may lack the field. Going down
      // a `relax` without a default, the planned value stays unchecked.
      if ((change.op === "require") === up && (up || change.default !== undefined)) {
        const fill: Pending =
          change.default !== undefined ? { kind: "default", value: change.default } : { kind: "stub", why: `\`${change.op}: ${change.path}\` declares no default`, loc: change.loc };
        slots.update(split(change.path), current, (of) => ({ kind: "fill", of, fill }));
      }
      return;
    case "wrap":
    case "head": {
      const path = split(change.path);
      if ((change.op === "wrap") === up) slots.update(path, current, (of) => ({ kind: "wrap", of }));
      else {
        const empty = emptyHead(change.default, fieldAt(next.fields, change.path), fieldAt(current.fields, change.path), `\`${change.op}: ${change.path}\` declares no default for an empty list`, change.loc);
        slots.update(path, current, (of) => (empty ? { kind: "head", of, empty } : { kind: "head", of }));
      }
      return;
    }
    case "retype":
    case "constrain":
    case "enum":
    case "custom":
      return; // types and enum values are converted when the target is planned
  }
};

const stubPrefix = (direction: Direction, edge: string): string => `${direction === "up" ? "upgrade" : "downgrade"}${versionId(edge)[0]!.toUpperCase()}${versionId(edge).slice(1)}`;

/** Plans one direction of `edge`'s changes. */
/**
 * A field stub's name, `upgradeV2_0$a$b`: each segment with what an identifier cannot hold (a quoted
 * field name's space, dot, dash) as `_`; a step's stubs that then share a name get `$2`, `$3`.
 */
const stubName = (prefix: string, path: FieldPath): string => `${prefix}$${path.map((segment) => segment.replace(/[^A-Za-z0-9_]/g, "_")).join("$")}`;

export const planStep = ({ contract, edge, parent, replayed, direction }: StepInput): { step: Step; stubs: Stub[] } => {
  const up = direction === "up";
  const [source, target] = up ? [parent, edge] : [edge, parent];
  const prefix = stubPrefix(direction, edge.version);
  const customChanges = edge.changes.filter((c): c is Extract<Change, { op: "custom" }> => c.op === "custom");
  const custom: Extract<Stub, { kind: "custom" }> | undefined =
    customChanges.length === 0
      ? undefined
      : {
          kind: "custom",
          name: `custom${versionId(edge.version)[0]!.toUpperCase()}${versionId(edge.version).slice(1)}`,
          edge: edge.version,
          direction: "up",
          source: parent.version,
          target: edge.version,
          summary: `${contract.name} ${parent.version} ⇄ ${edge.version}: ${customChanges.map((c) => c.description.trim()).join(" ")}`,
          descriptions: customChanges.map((c) => c.description.trim()),
          unconverted: [],
          loc: customChanges[0]!.loc,
        };
  const stubs: Stub[] = [];
  const names = new Set<string>();
  const uniqueName = (name: string): string => {
    let candidate = name;
    for (let n = 2; names.has(candidate); n++) candidate = `${name}$${n}`;
    names.add(candidate);
    return candidate;
  };
  const addStub = <S extends Stub>(stub: S): S => {
    stubs.push(stub);
    return stub;
  };
  const base = (name: string, summary: string, loc: SourceLocation) => ({
    name: uniqueName(name),
    edge: edge.version,
    direction,
    source: source.version,
    target: target.version,
    summary,
    loc,
  });

  // Replay the changes on the slots, in order going up and in reverse going down.
  const slots = createSlots(source);
  const ordered = up ? replayed : [...replayed].reverse();
  for (const { change, before, after } of ordered) {
    applyToSlots(slots, change, direction, up ? before : after, up ? after : before, edge.version);
  }

  // Enum tables: one per enum the step meets, from the declared maps in both directions.
  const tables = new Map<string, Conversion>();
  let enumsLossy = false;
  const enumConversion = (name: string): Conversion => {
    const known = tables.get(name);
    if (known) return known;
    const forward = mapEnumValues(name, source, target, replayed, direction);
    const backward = mapEnumValues(name, target, source, replayed, up ? "down" : "up");
    const entries: EnumTable["entries"][number][] = [];
    const lost: string[] = [];
    for (const [from, to] of forward) {
      if (to === undefined) lost.push(from);
      else if (to !== from) entries.push({ from, to: { kind: "value", value: to }, lossy: backward.get(to) !== from });
    }
    const reversible = [...forward].every(([from, to]) => to !== undefined && backward.get(to) === from);
    if (!reversible) enumsLossy = true;
    const unchecked = lost.length > 0 && (!up || custom !== undefined);
    if (lost.length > 0 && !unchecked) {
      const enumChange = [...edge.changes].reverse().find((c) => c.op === "enum" && c.name === name);
      const stub = addStub({
        ...base(
          `${prefix}${name}`,
          `${lost.join(", ")} of \`${name}\` have no counterpart in ${target.version} and no fallback: return the value each becomes`,
          enumChange?.loc ?? edge.loc,
        ),
        kind: "enum" as const,
        enum: name,
        values: lost,
      });
      for (const from of lost) entries.push({ from, to: { kind: "stub", stub }, lossy: false });
    }
    const conversion: Conversion =
      entries.length === 0 && !unchecked ? { kind: "same" } : { kind: "enum", table: { enum: name, reversible, unchecked, entries } };
    tables.set(name, conversion);
    return conversion;
  };
  const ctx: ConvertContext = { source, target, direction, custom: custom !== undefined, project: false, contract, enumConversion };

  const defaults: { path: FieldPath; value: JsonValue }[] = [];
  const fillFor = (pending: Pending, path: FieldPath): Fill | undefined => {
    if (pending.kind === "default") {
      defaults.push({ path, value: pending.value });
      return pending;
    }
    if (custom) return undefined; // the custom code supplies it
    return {
      kind: "stub",
      stub: addStub({
        ...base(stubName(prefix, path), `${pending.why}: return ${quote(path)} for a ${source.version} payload that has none`, pending.loc),
        kind: "fill" as const,
        path,
      }),
    };
  };

  type Declared = Pick<Field, "type" | "optional" | "nullable">;
  const planSource = (sourcePath: FieldPath, declared: Declared, path: FieldPath): ValuePlan => {
    const from = fieldAtSegments(source.fields, sourcePath);
    if (!from) throw new Error(`treaty bug: ${source.version} has no field ${sourcePath.join(".")}`);
    const conversion =
      convertField(from, { ...declared, optional: from.optional }, ctx) ??
      ({
        kind: "stub",
        stub: addStub({
          ...base(
            stubName(prefix, path),
            `${quote(sourcePath)} of ${source.version} does not fit the type of ${quote(path)} in ${target.version}: convert the value`,
            edge.loc,
          ),
          kind: "convert" as const,
          path,
          sourcePath,
        }),
      } as const);
    const plan: ValuePlan = { kind: "source", path: sourcePath, conversion };
    if (!from.optional || declared.optional || custom) return plan;
    // Going down, the target's required field was relaxed: a value it cannot do without is missing.
    if (!up) return { kind: "unchecked", of: plan };
    const fill = fillFor({ kind: "stub", why: `${quote(sourcePath)} is optional in ${source.version} and required in ${target.version}`, loc: edge.loc }, path);
    return fill ? { kind: "fill", of: plan, fill } : plan;
  };

  const planValue = (origin: Origin, declared: Declared, path: FieldPath): ValuePlan => {
    switch (origin.kind) {
      case "source":
        return planSource(origin.path, declared, path);
      case "object": {
        if (declared.type.kind !== "object") return fillFor({ kind: "stub", why: `${quote(path)} changed shape`, loc: edge.loc }, path) ?? { kind: "absent" };
        const guardField = origin.guard && fieldAtSegments(source.fields, origin.guard);
        const guarded = guardField !== undefined && (guardField.optional || guardField.nullable !== undefined);
        const fields = planFields(origin.slots, declared.type.fields, path);
        const sourceObject = guardField?.type.kind === "object" ? guardField.type : undefined;
        const kept = sourceObject && keptKeysOf(contract, sourceObject, declared.type, origin.guard!, { source, target });
        const plan: ValuePlan = guarded ? { kind: "object", guard: origin.guard!, fields } : { kind: "object", fields };
        return kept ? { ...plan, kept } : plan;
      }
      case "constant":
        defaults.push({ path, value: origin.value });
        return origin;
      case "fill": {
        const of = planValue(origin.of, { ...declared, optional: true }, path);
        const fill = fillFor(origin.fill, path);
        return fill ? { kind: "fill", of, fill } : of;
      }
      case "wrap":
        if (declared.type.kind !== "list") return { kind: "absent" };
        return { kind: "wrap", of: planValue(origin.of, { ...declared, type: declared.type.of }, path) };
      case "head": {
        const of = planValue(origin.of, { ...declared, type: { kind: "list", of: declared.type } }, path);
        const empty = origin.empty && fillFor(origin.empty, path);
        return empty ? { kind: "head", of, empty } : { kind: "head", of };
      }
      case "absent":
        return origin;
      case "pending":
        return fillFor(origin.fill, path) ?? { kind: "absent" };
    }
  };

  const planFields = (from: readonly Slot[], fields: readonly Field[], parentPath: FieldPath): FieldPlan[] => {
    // The first slot of each name, as a search would find it: one lookup a field, not a search.
    const slotNamed = new Map<string, Slot>();
    for (const slot of from) if (!slotNamed.has(slot.name)) slotNamed.set(slot.name, slot);
    return fields.map((field) => {
      const path = [...parentPath, field.name];
      const origin: Origin =
        slotNamed.get(field.name)?.origin ??
        (field.optional ? { kind: "absent" } : { kind: "pending", fill: { kind: "stub", why: `${quote(path)} is new in ${target.version}`, loc: field.loc } });
      return { name: field.name, optional: field.optional, value: planValue(origin, field, path) };
    });
  };

  const fields = planFields(slots.root, target.fields, []);
  // Next to a custom change treaty writes no stub for a value it cannot convert: the draft holds it as the source has it, and the custom code is told so.
  const withUnconverted = custom && { ...custom, unconverted: uncheckedPaths(fields, []) };
  const kept = keptKeysOf(contract, { fields: rootFields(contract, source) }, { fields: rootFields(contract, target) }, [], { source, target });
  // What a custom step carries over is up to its code, so treaty names no drops for it.
  const dropped = custom ? [] : uncovered(source.fields, fields);
  const step: Step = {
    name: prefix,
    direction,
    source,
    target,
    fields,
    dropped,
    ...(kept ? { kept } : {}),
    defaults,
    ...(withUnconverted ? { custom: withUnconverted } : {}),
    exact: !custom && !enumsLossy && dropped.length === 0 && !kept?.claimed.length && fields.every((f) => isExact(f.value)),
    unchecked: custom !== undefined || stubs.length > 0 || kept?.unchecked === true || fields.some((f) => hasUnchecked(f.value)),
  };
  return { step, stubs: withUnconverted ? [withUnconverted, ...stubs] : stubs };
};

/** Dotted paths of the fields whose planned value is unchecked, the innermost object field that is. */
const uncheckedPaths = (plans: readonly FieldPlan[], prefix: FieldPath): string[] =>
  plans.flatMap((plan) => {
    const path = [...prefix, plan.name];
    if (plan.value.kind === "object" && !plan.value.kept?.unchecked) return uncheckedPaths(plan.value.fields, path);
    return hasUnchecked(plan.value) ? [path.join(".")] : [];
  });

/** The unknown keys an object rebuilt field by field carries over: when both sides keep them. */
const keptKeysOf = (
  contract: Contract,
  from: OpenObject & { readonly fields: readonly Field[] },
  to: OpenObject & { readonly fields: readonly Field[] },
  source: FieldPath,
  versions: { readonly source: ResolvedVersion; readonly target: ResolvedVersion },
): (KeptKeys & { readonly source: FieldPath }) | undefined =>
  objectPolicy(contract, from).unknownFields === "keep" && objectPolicy(contract, to).unknownFields === "keep"
    ? {
        source,
        known: [...new Set([...from.fields, ...to.fields].map((f) => f.name))],
        claimed: claimedNames(from.fields, to.fields),
        unchecked: !keptKeysWiden(from, versions.source, to, versions.target),
      }
    : undefined;

/** Source paths a plan carries over whole. */
const coveredPaths = (plans: readonly FieldPlan[]): FieldPath[] => {
  const out: FieldPath[] = [];
  const visit = (plan: ValuePlan): void => {
    switch (plan.kind) {
      case "source":
        out.push(plan.path);
        return;
      case "fill":
      case "wrap":
      case "head":
      case "unchecked":
        visit(plan.of);
        return;
      case "object":
        plan.fields.forEach((f) => visit(f.value));
        return;
      default:
        return;
    }
  };
  plans.forEach((p) => visit(p.value));
  return out;
};

/** Source fields (through inline objects) that nothing carries over. */
const uncovered = (sourceFields: readonly Field[], plans: readonly FieldPlan[]): FieldPath[] => {
  const covered = new Set(coveredPaths(plans).map((p) => p.join(".")));
  // Every `k` some covered path starts with `${k}.`: what "a covered path lies below k" asks, in a set.
  const above = new Set<string>();
  for (const c of covered) for (let dot = c.indexOf("."); dot !== -1; dot = c.indexOf(".", dot + 1)) above.add(c.slice(0, dot));
  const out: FieldPath[] = [];
  const walk = (fields: readonly Field[], prefix: FieldPath): void => {
    for (const field of fields) {
      const path = [...prefix, field.name];
      const key = path.join(".");
      if (covered.has(key)) continue;
      const below = above.has(key);
      if (below && field.type.kind === "object") walk(field.type.fields, path);
      else if (!below) out.push(path);
    }
  };
  walk(sourceFields, []);
  return out;
};

const conversionExact = (c: Conversion): boolean => {
  switch (c.kind) {
    case "same":
      return true;
    case "enum":
      return c.table.reversible && !c.table.unchecked;
    case "list":
      return conversionExact(c.item);
    case "tuple":
      return c.items.every(conversionExact);
    case "map":
      return conversionExact(c.value);
    case "object":
      return c.dropped.length === 0 && !c.keep?.claimed.length && c.fields.every((f) => conversionExact(f.conversion));
    case "union":
    case "oneOf":
      return c.variants.every((v) => conversionExact(v.conversion));
    default:
      return false;
  }
};

const isExact = (plan: ValuePlan): boolean => {
  switch (plan.kind) {
    case "source":
      return conversionExact(plan.conversion);
    case "object":
      return !plan.kept?.claimed.length && plan.fields.every((f) => isExact(f.value));
    case "wrap":
      return isExact(plan.of);
    case "constant":
    case "absent":
      return true;
    default:
      return false; // fills, heads and stubs lose what they replace
  }
};

const conversionUnchecked = (c: Conversion): boolean => {
  switch (c.kind) {
    case "unchecked":
    case "stub":
      return true;
    case "enum":
      return c.table.unchecked || c.table.entries.some((e) => e.to.kind === "stub");
    case "list":
      return conversionUnchecked(c.item);
    case "tuple":
      return c.items.some(conversionUnchecked);
    case "map":
      return conversionUnchecked(c.value);
    case "object":
      return c.keep?.unchecked === true || c.fields.some((f) => conversionUnchecked(f.conversion));
    case "union":
    case "oneOf":
      return c.variants.some((v) => conversionUnchecked(v.conversion));
    case "named":
      return conversionUnchecked(c.conversion);
    default:
      return false;
  }
};

const hasUnchecked = (plan: ValuePlan): boolean => {
  switch (plan.kind) {
    case "source":
      return conversionUnchecked(plan.conversion);
    case "object":
      return plan.kept?.unchecked === true || plan.fields.some((f) => hasUnchecked(f.value));
    case "fill":
      return hasUnchecked(plan.of) || plan.fill.kind === "stub";
    case "wrap":
      return hasUnchecked(plan.of);
    case "head":
      return hasUnchecked(plan.of) || plan.empty?.kind === "stub";
    case "stub":
    case "unchecked":
      return true;
    default:
      return false;
  }
};
