#!/usr/bin/env node
import { runCli } from "./run-cli.js";

// A reader that stops early (`treaty check --format json | head -1`, `treaty --help | true`) closes
// the pipe: what it does not read is dropped, and treaty ends with the status of its work, without
// the stack trace of an unhandled EPIPE. Any other write error is still thrown.
const closed = new Set<NodeJS.WriteStream>();
const writer = (stream: NodeJS.WriteStream) => {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed.add(stream);
  });
  return (text: string): void => {
    if (!closed.has(stream)) stream.write(text);
  };
};

process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  interactive: process.stderr.isTTY === true && !process.env["CI"],
  stdout: writer(process.stdout),
  stderr: writer(process.stderr),
});
