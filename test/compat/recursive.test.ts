// Compatibility of recursive named types: shapes of a recursive type are cyclic (one per named
// type), and the engine compares them co-inductively, so it terminates and reports a change
// inside the type once, at its first place.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/pipeline.js";
import { versionDifferences } from "../../src/compat/version-differences.js";
import { shapeOfVersion } from "../../src/compat/shape-of-version.js";
import { compare } from "../../src/compat/compare.js";

const ROOT = join(import.meta.dirname, "../fixtures/good-recursive");
const project = compile({ root: ROOT, idlDir: join(ROOT, "idl") }).value!;
const contract = (name: string) => project.contracts.find((c) => c.name === name)!;

describe("compat on recursive types", () => {
  it("a version against itself: no differences, though the shape is cyclic", () => {
    const tree = contract("demo.tree");
    const [v1] = tree.versions;
    expect(compare(shapeOfVersion(tree, v1!), shapeOfVersion(tree, v1!))).toEqual([]);
  });

  it("an enum value removed from a type inside a recursive one is reported, and the comparison ends", () => {
    const thread = contract("demo.thread");
    const [v1, v11] = thread.versions;
    const differences = versionDifferences(thread, v1!, v11!);
    expect(differences.length).toBeGreaterThan(0);
    expect(differences.some((d) => d.path.startsWith("/root/reaction"))).toBe(true);
    expect(differences.every((d) => d.path.startsWith("/root/"))).toBe(true);
  });
});
