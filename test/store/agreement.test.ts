// On the same random events, the SQLite store answers every query and aggregate as the in-memory
// one does: filters, half-open windows, order with ties, limits, percentiles, duplicates, conflicts.
import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryStore } from "../../src/store/index.js";
import { openSqliteStore } from "../../src/store-sqlite/index.js";
import { arbitraryEvent, arbitraryQuery } from "../support/agent-events.js";
import { scratchDir } from "../support/stores.js";

const scratch = scratchDir();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the SQLite and in-memory stores", () => {
  it("agree on appends, queries and aggregates of the same events", () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(arbitraryEvent, { maxLength: 40 }), fc.array(arbitraryQuery, { minLength: 1, maxLength: 8 }), (events, queries) => {
        const memory = createMemoryStore();
        const sqlite = openSqliteStore(join(scratch, `run-${run++}.sqlite`));
        try {
          for (const event of events) expect(sqlite.append(event)).toEqual(memory.append(event));
          for (const query of queries) {
            expect(sqlite.query(query)).toEqual(memory.query(query));
            const { limit: _, ...filters } = query;
            expect(sqlite.aggregate(filters)).toEqual(memory.aggregate(filters));
          }
        } finally {
          sqlite.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
