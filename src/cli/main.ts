#!/usr/bin/env node
import { runCli } from "./run-cli.js";

process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  interactive: process.stderr.isTTY === true && !process.env["CI"],
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
