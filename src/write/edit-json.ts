// A JSON file changed in place, by splicing its text: what a change does not touch keeps every byte
// (a number JSON.parse would round, such as 1e400, -0 or a 23-digit integer, an escape, the
// spacing, the key order), where JSON.stringify of the whole file would rewrite them all.
import { isMap, isScalar, type Node, type YAMLMap } from "yaml";
import type { SourceFile } from "../load/load.js";

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `file`'s text (JSON, parsed with positions) changed from `before` to `after`, both its value as
 * JSON.parse reads it: a key `after` adds is appended to its object, laid out like the object's
 * members (each on a line of its own at their indentation, what nests in it `unit` deeper, or all on
 * the object's one line); a value that differs is replaced whole. A key `after` lacks stays: only
 * additions and replacements are needed.
 */
export const editJson = (file: SourceFile, before: unknown, after: unknown, unit: string): string => {
  const { text } = file;
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const lineIndent = (offset: number): string => /^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", offset - 1) + 1))![0];
  // `value` as JSON.stringify lays it out, its lines after the first at `indent`.
  const layout = (value: unknown, indent: string): string => JSON.stringify(value, null, unit).replaceAll("\n", `${newline}${indent}`);
  const splices: Splice[] = [];

  const addMembers = (map: YAMLMap, added: readonly (readonly [string, unknown])[]): Splice => {
    const [open, end] = map.range!;
    const last = map.items.at(-1);
    if (last === undefined) {
      const outer = lineIndent(open);
      const inner = outer + unit;
      const members = added.map(([key, value]) => `${inner}${JSON.stringify(key)}: ${layout(value, inner)}`);
      return { start: open + 1, end: end - 1, text: `${newline}${members.join(`,${newline}`)}${newline}${outer}` };
    }
    const key = last.key as Node;
    const value = last.value as Node;
    const at = value.range![1];
    const lead = text.slice(text.lastIndexOf("\n", key.range![0] - 1) + 1, key.range![0]);
    if (/^[ \t]*$/.test(lead)) return { start: at, end: at, text: added.map(([k, v]) => `,${newline}${lead}${JSON.stringify(k)}: ${layout(v, lead)}`).join("") };
    // The object is on one line with what is before its last key: the new members join it there.
    const colon = text.slice(key.range![1], value.range![0]);
    const comma = /^\s/.test(text.slice(open + 1)) ? ", " : ",";
    return { start: at, end: at, text: added.map(([k, v]) => `${comma}${JSON.stringify(k)}${colon}${JSON.stringify(v)}`).join("") };
  };

  const edit = (node: Node, old: unknown, now: unknown): void => {
    if (isMap(node) && isObject(old) && isObject(now)) {
      // Keys are unique (a duplicate is refused before): each pair is the one of its name.
      for (const pair of node.items) {
        const name = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (name !== undefined && Object.hasOwn(now, name)) edit(pair.value as Node, old[name], now[name]);
      }
      const added = Object.keys(now).filter((key) => !Object.hasOwn(old, key));
      if (added.length > 0) splices.push(addMembers(node, added.map((key) => [key, now[key]] as const)));
    } else if (JSON.stringify(old) !== JSON.stringify(now)) {
      splices.push({ start: node.range![0], end: node.range![1], text: layout(now, lineIndent(node.range![0])) });
    }
  };
  edit(file.doc.contents as Node, before, after);
  // From the end back, so each splice's offsets are still the text's.
  let edited = text;
  for (const { start, end, text: inserted } of splices.sort((a, b) => b.start - a.start)) edited = edited.slice(0, start) + inserted + edited.slice(end);
  return edited;
};
