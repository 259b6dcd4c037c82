// The change operations adapters need, as the resolver reads and applies them: nest and hoist,
// wrap and head, defaults on relax, and the diagnostics when they do not fit.
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Field, ResolvedVersion } from "../../src/ir/model.js";
import { compile } from "../../src/pipeline.js";
import { createProject, type TempProject } from "./project.js";

const projects: TempProject[] = [];
afterAll(() => projects.forEach((p) => p.remove()));

const HEAD = `contract: demo.thing
owner: test
kind: event
versions:
  "1.0":
    fields:
      street: { type: string, maxLength: 10 }
      city: { type: string, maxLength: 10, optional: true }
      tag: { type: string, maxLength: 5 }
      phones: { type: list, of: { type: string, maxLength: 9 }, maxItems: 4 }
      score: { type: int, min: 0 }
      box:
        type: object
        fields:
          inner: int
          other: int
      maybe:
        type: object
        optional: true
        fields:
          x: int
`;

const compileVersions = (changes: string) => {
  const project = createProject({ "idl/demo/demo.thing.yaml": `${HEAD}  "2.0":\n    changes:\n${changes}` });
  projects.push(project);
  return compile({ root: project.root, idlDir: `${project.root}/idl` });
};

const errors = (changes: string): string[] =>
  compileVersions(changes)
    .diagnostics.filter((d) => d.severity === "error")
    .map(formatDiagnostic);

/** Field names with their nested ones: `address{street,city?}`. */
const shape = (fields: readonly Field[]): string =>
  fields.map((f) => `${f.name}${f.optional ? "?" : ""}${f.type.kind === "object" ? `{${shape(f.type.fields)}}` : f.type.kind === "list" ? "[]" : ""}`).join(",");

const version2 = (changes: string): ResolvedVersion => {
  const result = compileVersions(changes);
  expect(result.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic)).toEqual([]);
  return result.value!.contracts[0]!.versions[1]!;
};

describe("nest and hoist", () => {
  it("nest creates the objects it moves fields into; hoist removes the ones it empties", () => {
    const v = version2(`      - nest: { from: street, to: address.street }
      - nest: { from: city, to: address.town }
      - hoist: { from: box.inner, to: inner }
      - hoist: { from: box.other, to: other }
`);
    expect(shape(v.fields)).toBe("tag,phones[],score,maybe?{x},address{street,town?},inner,other");
    expect(v.changes.map((c) => c.op)).toEqual(["nest", "nest", "hoist", "hoist"]);
  });

  it("nest moves into existing objects at any depth below the parent", () => {
    expect(shape(version2("      - nest: { from: tag, to: box.deeper.tag }\n").fields)).toBe("street,city?,phones[],score,box{inner,other,deeper{tag}},maybe?{x}");
  });

  it.each([
    ["a nest that does not go below the parent", "      - nest: { from: box.inner, to: inner }\n", "nest 'box.inner' → 'inner' must move the field into an object inside its parent"],
    ["a hoist that does not go above the parent", "      - hoist: { from: tag, to: box.tag }\n", "hoist 'tag' → 'box.tag' must move the field out to an object that encloses it"],
    ["a move through an optional object", "      - nest: { from: tag, to: maybe.tag }\n", "nest 'tag' → 'maybe.tag' passes through 'maybe', which is optional or nullable; fields move only between required objects"],
    ["a move into the field itself", "      - nest: { from: box, to: box.box }\n", "nest 'box' → 'box.box' cannot move a field into itself"],
  ])("rejects %s, at where the field would go", (_what, changes, message) => {
    // The column of the `to:` value.
    expect(errors(changes)).toEqual([`idl/demo/demo.thing.yaml:24:${changes.indexOf(" to: ") + 6} - error invalid-move: ${message}`]);
  });

  it("rejects a nest into a field that is not an object at where it would go", () => {
    const changes = "      - nest: { from: tag, to: score.tag }\n";
    expect(errors(changes)).toEqual([`idl/demo/demo.thing.yaml:24:${changes.indexOf(" to: ") + 6} - error not-an-object: 'score' is not an inline object, so it has no field 'tag'`]);
  });

  it("rejects a hoist out of an optional object at the field it moves", () => {
    const changes = "      - hoist: { from: maybe.x, to: x }\n";
    expect(errors(changes)).toEqual([
      `idl/demo/demo.thing.yaml:24:${changes.indexOf(" from: ") + 8} - error invalid-move: hoist 'maybe.x' → 'x' passes through 'maybe', which is optional or nullable; fields move only between required objects`,
    ]);
  });

  it("rejects a move onto an existing field and one from a field that does not exist", () => {
    expect(errors("      - nest: { from: tag, to: box.inner }\n")).toEqual(["idl/demo/demo.thing.yaml:24:32 - error field-exists: field 'box.inner' already exists at 2.0"]);
    expect(errors("      - nest: { from: tga, to: box.tag }\n")).toEqual(["idl/demo/demo.thing.yaml:24:23 - error unknown-field: field 'tga' does not exist at 2.0 (did you mean 'tag'?)"]);
  });
});

describe("wrap and head", () => {
  it("wrap makes a list of the field's type, with the list constraints beside it", () => {
    const tag = version2("      - wrap: tag\n        maxItems: 3\n        default: none\n").fields.find((f) => f.name === "tag")!;
    expect(tag.type).toEqual({ kind: "list", of: { kind: "string", maxLength: 5 }, maxItems: 3 });
    expect(version2("      - wrap: tag\n        maxItems: 3\n        default: none\n").changes[0]).toMatchObject({ op: "wrap", path: "tag", maxItems: 3, default: "none" });
  });

  it("head makes the field its list's item type", () => {
    expect(version2("      - head: phones\n        default: none\n").fields.find((f) => f.name === "phones")!.type).toEqual({ kind: "string", maxLength: 9 });
  });

  it("head needs a list", () => {
    expect(errors("      - head: tag\n")).toEqual(["idl/demo/demo.thing.yaml:24:15 - error invalid-value: head 'tag' must be a list field"]);
  });
});

describe("defaults on changes", () => {
  it("relax takes a default for older versions", () => {
    expect(version2("      - relax: score\n        default: 0\n").changes[0]).toMatchObject({ op: "relax", path: "score", default: 0 });
  });

  it.each([
    ["require", "      - require: city\n        default: 5\n", "city", "expected a string"],
    ["relax", "      - relax: score\n        default: low\n", "score", "expected an integer"],
    ["remove", "      - remove: box\n        default: { inner: 1 }\n", "box", "missing 'other'"],
    ["head", "      - head: phones\n        default: [x]\n", "phones", "expected a string"],
  ])("a %s default must fit the field it fills", (_op, changes, field, detail) => {
    expect(errors(changes)).toEqual([`idl/demo/demo.thing.yaml:24:9 - error default-type-mismatch: default of '${field}' does not match its type: ${detail}`]);
  });
});

describe("enum changes", () => {
  it("an enum emptied by its removals is reported at the change's `remove`", () => {
    const head = `contract: demo.kinds
owner: test
kind: event
enums:
  Kind:
    values:
      A: The first.
      B: The second.
versions:
  "1.0":
    fields:
      kind: Kind
  "2.0":
    changes:
      - enum: Kind
        remove: [A, B]
`;
    const project = createProject({ "idl/demo/demo.kinds.yaml": head });
    projects.push(project);
    const found = compile({ root: project.root, idlDir: `${project.root}/idl` })
      .diagnostics.filter((d) => d.code === "empty-enum")
      .map(formatDiagnostic);
    expect(found).toEqual(["idl/demo/demo.kinds.yaml:16:9 - error empty-enum: enum 'Kind' has no values"]);
  });
});

describe("the breaks of a move", () => {
  it("are located at the move, the object it empties or creates included", () => {
    const text = `contract: demo.moves
owner: test
kind: event
compatibility: full
versions:
  "1.0":
    fields:
      o: { type: object, fields: { x: { type: int, min: 0 } } }
      y: int
  "1.1":
    changes:
      - hoist: { from: o.x, to: x }
      - nest: { from: y, to: p.y }
`;
    const project = createProject({ "idl/demo/demo.moves.yaml": text });
    projects.push(project);
    const breaks = compile({ root: project.root, idlDir: `${project.root}/idl` }).diagnostics.filter((d) => d.code === "bump-too-small");
    // o removed and o.x moved, at the hoist; p created and y moved, at the nest.
    expect(breaks.map((d) => `${formatDiagnostic(d).split(" - ")[0]} ${/field "[^"]+" (?:removed|added|moved)/.exec(d.message)?.[0]}`).sort()).toEqual([
      'idl/demo/demo.moves.yaml:12:9 field "o" removed',
      'idl/demo/demo.moves.yaml:12:9 field "o.x" moved',
      'idl/demo/demo.moves.yaml:13:9 field "p" added',
      'idl/demo/demo.moves.yaml:13:9 field "y" moved',
    ]);
  });
});
