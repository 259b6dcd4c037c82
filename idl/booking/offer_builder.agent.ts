// Hand-written code of agent booking.offer_builder (idl/booking/offer_builder.agent.yaml).
// `treaty generate` adds `execute` and a stub per custom rule here, and never changes code that is
// already here. Each stub throws until it is written.
import type * as generated from "../../generated/agents/booking.offer_builder.js";

/** Holds an offer a search returned as an order, for the named passengers. Runs only after every gate before it passed. */
export async function execute(input: generated.Input): Promise<generated.Output> {
  return {
    contract: "booking.order",
    version: "1.0",
    order_id: `OR-${input.offer_id.slice(3)}00`,
    offer_id: input.offer_id,
    expires_at: new Date(Date.now() + 30 * 60 * 1000).toISOString(),
    confidence: 0.97,
  };
}
