// How generated tests write their values: inline, with long runs of one character or of one item
// written as `repeat` and `fill`, so a bound's edge stays readable.
import { expect, it } from "vitest";
import { valueCode } from "../../src/emit/tests.js";

it("writes JSON values as TypeScript expressions", () => {
  expect(valueCode({ id: "TASK-1", "odd key": [1, null, true], nested: { a: [] } })).toBe('{ id: "TASK-1", "odd key": [1, null, true], nested: { a: [] } }');
});

it("writes a long run of one character with repeat, keeping what is around it", () => {
  const value = `TASK-${"0".repeat(59)}!`;
  const code = valueCode(value);
  expect(code).toBe('"TASK-" + "0".repeat(59) + "!"');
  expect(new Function(`return ${code};`)()).toBe(value);
  expect(valueCode("x".repeat(15))).toBe(JSON.stringify("x".repeat(15)));
});

it("writes a long list of one item with fill", () => {
  const item = { claim_id: "c0", refs: ["src://a"] };
  const value = Array.from({ length: 500 }, () => item);
  const code = valueCode(value);
  expect(code).toBe('Array(500).fill({ claim_id: "c0", refs: ["src://a"] })');
  expect(new Function(`return ${code};`)()).toEqual(value);
  expect(valueCode([1, 1, 1])).toBe("[1, 1, 1]");
});
