// Which validator declarations a contract's versions share (emit/validator-sharing.ts), on
// declarations written here as the hoister emits them: the same text and the same declarations
// named inside is shared, anything else stays in its version.
import { describe, expect, it } from "vitest";
import { shareDeclarations } from "../../src/emit/validator-sharing.js";

const fn = (name: string, body: string): string => `function is_${name}(v: any): boolean {\n  return ${body};\n}`;

describe("shareDeclarations", () => {
  it("shares what two versions hold word for word, and leaves what only one holds", () => {
    const item = fn("Item", 'typeof v === "string"');
    const sharing = shareDeclarations([
      [item, fn("root", "is_Item(v.a)")],
      [item, fn("root", "is_Item(v.a) && is_Item(v.b)")],
      [fn("Other", "true")],
    ]);
    expect(sharing.shared).toEqual([`export ${item}`]);
    expect(sharing.versions.map((v) => [v.declarations.length, [...v.shared]])).toEqual([
      [1, ["is_Item"]],
      [1, ["is_Item"]],
      [1, []],
    ]);
  });

  it("keeps a declaration whose text matches but names one that differs", () => {
    const order = fn("Order", "is_Price(v.price)");
    const sharing = shareDeclarations([
      [fn("Price", "v >= 0"), order],
      [fn("Price", "v >= 1"), order],
    ]);
    expect(sharing.shared).toEqual([]);
    expect(sharing.versions.map((v) => v.declarations)).toEqual([
      [fn("Price", "v >= 0"), order],
      [fn("Price", "v >= 1"), order],
    ]);
  });

  it("keeps state, what names a later declaration, and what uses either", () => {
    const depth = "let depth = 0;";
    const deep = fn("Deep", "depth < 8");
    const a = fn("A", "is_B(v)");
    const b = fn("B", "is_A(v.next)");
    const sharing = shareDeclarations([
      [depth, deep, a, b],
      [depth, deep, a, b],
    ]);
    // B names only A, which comes before it; but A names B, which comes after: A stays, and so B.
    expect(sharing.shared).toEqual([]);
    expect(sharing.versions[1]!.declarations).toEqual([depth, deep, a, b]);
  });

  it("gives a name one declaration: the first two versions share under it", () => {
    const first = fn("X", "v === 1");
    const second = fn("X", "v === 2");
    const sharing = shareDeclarations([[first], [first], [second], [second]]);
    expect(sharing.shared).toEqual([`export ${first}`]);
    expect(sharing.versions.map((v) => v.declarations)).toEqual([[], [], [second], [second]]);
  });

  it("exports each function and constant of a declaration", () => {
    const trio = ['const re_x = new RegExp("^a$", "u");', fn("x", "re_x.test(v)")].join("\n\n");
    expect(shareDeclarations([[trio], [trio]]).shared).toEqual([trio.replace(/^(const|function) /gm, "export $1 ")]);
  });
});
