// The seed's contract metrics, counted by every runtime and read with `snapshot()`; mirrored to
// an OpenTelemetry meter when one is given (structurally: `metrics.getMeter(…)` fits).
import type { Attributes } from "./trace.js";

/** Counts by contract, then by the known version read (`-` before a version was read). */
export type ByVersion = { [contract: string]: { [version: string]: number } };
export type ByContract = { [contract: string]: number };

export interface MetricsSnapshot {
  /** Decodes whose envelope named a readable version: traffic per version, old ones included. */
  readonly traffic: ByVersion;
  /** INVALID_INPUT failures: unreadable text, envelope, schema, semantic rules, canonical fit. */
  readonly validationFailures: ByVersion;
  /** Decodes of text that needed repair to parse (repaired or not). */
  readonly repairsTried: ByContract;
  /** Of those, decodes that ended in a typed result. */
  readonly repairsSucceeded: ByContract;
  /** UNSUPPORTED_VERSION failures: unknown or unaccepted version or contract, or no adapter. */
  readonly unsupportedVersions: ByContract;
}

/** The part of an OpenTelemetry `Meter` the runtime uses. */
export interface MeterLike {
  createCounter(name: string, options?: { description?: string }): { add(value: number, attributes?: Attributes): void };
}

export type MetricName = keyof MetricsSnapshot;

const DESCRIPTIONS: { readonly [M in MetricName]: string } = {
  traffic: "treaty decodes by contract and version read",
  validationFailures: "treaty INVALID_INPUT failures by contract and version",
  repairsTried: "treaty decodes of text that needed repair",
  repairsSucceeded: "treaty repaired decodes that ended in a result",
  unsupportedVersions: "treaty UNSUPPORTED_VERSION failures by contract",
};

export interface Metrics {
  count(metric: MetricName, contract: string, version?: string): void;
  /** `count` bound to one metric, contract and version: what a hot path keeps and calls. */
  counter(metric: MetricName, contract: string, version?: string): () => void;
  snapshot(): MetricsSnapshot;
}

const otelName = (metric: MetricName): string => `treaty.${metric.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;

// A count is a cell a counter increments in place: a property of a fixed shape, where a count kept
// under its version's name in a dictionary cost a hashed store on every decode. A snapshot reads
// the cells into plain objects, in the order they were made.
interface Cell {
  n: number;
}

const read = <K extends string>(cells: Map<K, Cell>): { [key: string]: number } => {
  const counts: { [key: string]: number } = {};
  for (const [key, cell] of cells) counts[key] = cell.n;
  return counts;
};

export const createMetrics = (meter?: MeterLike): Metrics => {
  const byVersion = { traffic: new Map<string, Map<string, Cell>>(), validationFailures: new Map<string, Map<string, Cell>>() };
  const byContract = { repairsTried: new Map<string, Cell>(), repairsSucceeded: new Map<string, Cell>(), unsupportedVersions: new Map<string, Cell>() };
  const counters = meter && Object.fromEntries((Object.keys(DESCRIPTIONS) as MetricName[]).map((m) => [m, meter.createCounter(otelName(m), { description: DESCRIPTIONS[m] })]));

  const cellOf = (metric: MetricName, contract: string, version: string): Cell => {
    let cells: Map<string, Cell>;
    let key = contract;
    if (metric === "traffic" || metric === "validationFailures") {
      const contracts = byVersion[metric];
      let versions = contracts.get(contract);
      if (versions === undefined) contracts.set(contract, (versions = new Map()));
      cells = versions;
      key = version;
    } else cells = byContract[metric];
    let cell = cells.get(key);
    if (cell === undefined) cells.set(key, (cell = { n: 0 }));
    return cell;
  };

  const counter = (metric: MetricName, contract: string, version = "-"): (() => void) => {
    const cell = cellOf(metric, contract, version);
    const otel = counters?.[metric];
    if (otel === undefined)
      return () => {
        cell.n++;
      };
    const attributes = { "treaty.contract": contract, "treaty.contract.version": version };
    return () => {
      cell.n++;
      otel.add(1, attributes);
    };
  };

  // The counters `count` made, by metric, contract and version (a failing decode counts, and making
  // a counter allocates), in maps keyed by each name as given: a key joined from them would be a new
  // string to hash on every call, which cost more than making the counter. Contract names come
  // from callers, so a metric holds at most 4,096 contracts before it starts over.
  const made = new Map<MetricName, Map<string, Map<string, () => void>>>();
  const count = (metric: MetricName, contract: string, version = "-"): void => {
    let byContract = made.get(metric);
    if (byContract === undefined) made.set(metric, (byContract = new Map()));
    let byVersion = byContract.get(contract);
    if (byVersion === undefined) {
      if (byContract.size >= 4096) byContract.clear();
      byContract.set(contract, (byVersion = new Map()));
    }
    let bump = byVersion.get(version);
    if (bump === undefined) byVersion.set(version, (bump = counter(metric, contract, version)));
    bump();
  };

  const perVersion = (contracts: Map<string, Map<string, Cell>>): ByVersion => {
    const counts: ByVersion = {};
    for (const [contract, versions] of contracts) counts[contract] = read(versions);
    return counts;
  };
  const snapshot = (): MetricsSnapshot => ({
    traffic: perVersion(byVersion.traffic),
    validationFailures: perVersion(byVersion.validationFailures),
    repairsTried: read(byContract.repairsTried),
    repairsSucceeded: read(byContract.repairsSucceeded),
    unsupportedVersions: read(byContract.unsupportedVersions),
  });

  return { count, counter, snapshot };
};
