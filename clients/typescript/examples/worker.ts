// A minimal Praxis worker: serves the model "summarise", four tasks at a time, until
// SIGINT or SIGTERM, then finishes the tasks in hand and exits.
import { Applied, NotApplied, Worker, connect, type TaskContext } from "@praxis-engine/client";

// Does one task: {"text": ...} -> {"summary": its first 100 characters}.
// ctx.signal aborts when the run is stopped or the lease is lost.
async function handle(ctx: TaskContext) {
  const { text } = (ctx.input ?? {}) as { text?: unknown };
  if (typeof text !== "string" || !text) throw new NotApplied("no text to summarise");
  const summary = Array.from(text).slice(0, 100).join(""); // the real work: call a model ...
  return new Applied({ summary }, { cost: "12.5" });
}

const client = connect(process.env.PRAXIS_ADDRESS ?? "127.0.0.1:50051", process.env.PRAXIS_TOKEN);
await new Worker(client, { models: ["summarise"], concurrency: 4 }, handle).run();
client.close();
