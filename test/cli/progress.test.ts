// The progress line: only on a terminal, only once a run has taken a second, cleared before the summary.
import { afterEach, expect, it, vi } from "vitest";
import { createProgressLine } from "../../src/cli/progress.js";

afterEach(() => vi.useRealTimers());

const io = (interactive: boolean) => {
  let text = "";
  return { io: { cwd: ".", interactive, stdout: () => {}, stderr: (t: string) => void (text += t) }, text: () => text };
};

it("draws one line in place on a terminal after a second, and clears it", () => {
  vi.useFakeTimers({ toFake: ["performance"] });
  const { io: terminal, text } = io(true);
  const line = createProgressLine(terminal, true);
  line.update({ phase: "emitting", done: 1, total: 10 });
  expect(text()).toBe(""); // a short run shows nothing
  vi.advanceTimersByTime(1500);
  line.update({ phase: "emitting", done: 5, total: 10 });
  line.update({ phase: "emitting", done: 6, total: 10 }); // within the redraw interval: skipped
  vi.advanceTimersByTime(200);
  line.update({ phase: "writing", done: 10, total: 10 });
  line.end();
  expect(text()).toBe("\r\x1b[2Ktreaty: emitting 5/10 contracts\r\x1b[2Ktreaty: writing 10 contracts\r\x1b[2K");
});

it("draws nothing when stderr is not a terminal, or with --quiet", () => {
  vi.useFakeTimers({ toFake: ["performance"] });
  for (const [interactive, enabled] of [[false, true], [true, false]] as const) {
    const { io: stream, text } = io(interactive);
    const line = createProgressLine(stream, enabled);
    vi.advanceTimersByTime(5000);
    line.update({ phase: "emitting", done: 5, total: 10 });
    line.end();
    expect(text()).toBe("");
  }
});
