// Hand-written code of agent booking.airport_code_resolver (idl/booking/airport_code_resolver.agent.yaml).
// `treaty generate` adds `execute` and a stub per custom rule here, and never changes code that is
// already here. Each stub throws until it is written.
import type * as generated from "../../generated/agents/booking.airport_code_resolver.js";
import * as treaty from "treaty/runtime";

/** The fixed reference data of this example. */
const AIRPORTS = [
  { code: "LHR", name: "London Heathrow", matches: ["lhr", "heathrow", "london heathrow"] },
  { code: "JFK", name: "New York John F. Kennedy", matches: ["jfk", "kennedy", "new york jfk"] },
];

/** Resolves an airport's name, city or code to its IATA code. Runs only after every gate before it passed. */
export async function execute(input: generated.Input): Promise<generated.Output> {
  const airport = AIRPORTS.find((a) => a.matches.includes(input.text.trim().toLowerCase()))!;
  return { contract: "booking.airport", version: "1.0", code: airport.code, name: airport.name, confidence: 0.98 };
}

/** Custom rule of booking.airport_code_resolver: The text matches exactly one airport of the reference data. */
export async function textNamesOneAirport(input: generated.Input): Promise<treaty.AgentRuleResult> {
  const found = AIRPORTS.filter((a) => a.matches.includes(input.text.trim().toLowerCase()));
  if (found.length === 1) return { ok: true };
  return { ok: false, path: "/text", message: found.length === 0 ? "no airport is known by this name" : "several airports match", suggestion: "Give the IATA code, e.g. LHR." };
}
