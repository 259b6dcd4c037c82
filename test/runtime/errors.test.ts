// The runtime's error type against the operation.error contract it claims to be: the same class set
// and retry rule as the IDL, and a TypeScript type mutually assignable with the generated one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ErrorClass as GeneratedClass, OperationErrorV1_0 } from "../../generated/operation.error/v1_0/types.js";
import { check as checkOperationError } from "../../generated/operation.error/v1_0/validator.js";
import { registry } from "../../generated/index.js";
import { createRegistry, createRuntime, ERROR_CLASSES, type ErrorClass, type OperationError } from "treaty/runtime";

const IDL = parse(readFileSync(join(import.meta.dirname, "../../idl/errors/operation.error.yaml"), "utf8")) as {
  enums: { ErrorClass: { values: Record<string, string> } };
};

// Type-level: `npm run typecheck` fails here if the runtime's type drifts from the generated contract.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameError: Same<OperationError, OperationErrorV1_0> = true;
const sameClass: Same<ErrorClass, GeneratedClass> = true;

describe("operation.error as the runtime's error type", () => {
  it("is mutually assignable with the generated OperationErrorV1_0", () => {
    expect([sameError, sameClass]).toEqual([true, true]);
    expectTypeOf<OperationError>().toEqualTypeOf<OperationErrorV1_0>();
  });

  it("has the IDL's class set, in its order", () => {
    expect(Object.keys(ERROR_CLASSES)).toEqual(Object.keys(IDL.enums.ErrorClass.values));
  });

  it("retries exactly the classes whose IDL meaning says 'Retryable: yes'", () => {
    for (const [name, meaning] of Object.entries(IDL.enums.ErrorClass.values)) {
      expect(ERROR_CLASSES[name as ErrorClass].retryable, name).toBe(/Retryable: yes/.test(meaning));
    }
  });
});

describe("default error ids", () => {
  it("are unique within and across runtimes and registries, each error a valid operation.error", () => {
    const decoders = [createRuntime(registry), createRuntime(registry), createRegistry(registry.contracts)];
    const ids = new Set<string>();
    for (const decoder of decoders) {
      for (let i = 0; i < 500; i++) {
        const failed = decoder.decode("task.result", { contract: "task.result", version: "1.2", task_id: i });
        if (failed.ok) throw new Error("an invalid payload decoded");
        expect(checkOperationError(failed.error), failed.error.error_id).toBe(true);
        ids.add(failed.error.error_id);
      }
    }
    expect(ids.size).toBe(1500);
  });
});
