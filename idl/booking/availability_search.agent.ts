// Hand-written code of agent booking.availability_search (idl/booking/availability_search.agent.yaml).
// `treaty generate` adds `execute` and a stub per custom rule here, and never changes code that is
// already here. Each stub throws until it is written.
import type * as generated from "../../generated/agents/booking.availability_search.js";
import * as treaty from "treaty/runtime";

/** Searches the airlines for offers matching the trip. Runs only after every gate before it passed. */
export async function execute(input: generated.Input): Promise<generated.Output> {
  const total = (input.cabin === "BUSINESS" ? 2400 : 420) * input.passengers;
  return {
    contract: "booking.offers",
    version: "1.0",
    offers: [{ offer_id: "OF-ABC123", cabin: input.cabin, total: total.toFixed(2), currency: "GBP" }],
    confidence: 0.9,
  };
}

/** Custom rule of booking.availability_search: departure_date is after today in the origin's time zone. */
export async function departureIsInTheFuture(input: generated.Input): Promise<treaty.AgentRuleResult> {
  // Dates are days: comparing ISO dates as strings orders them.
  const today = new Date().toISOString().slice(0, 10);
  return input.departure_date > today ? { ok: true } : { ok: false, path: "/departure_date", message: "departure is not in the future", suggestion: `A day after ${today}.` };
}
