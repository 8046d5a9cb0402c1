// Run and registry helpers (docs/workers.md, section 12) and typed JSON helpers.
import { clone, create, type MessageInitShape } from "@bufbuild/protobuf";
import { randomBytes } from "node:crypto";
import type { Epochs } from "./gen/aiws/engine/v1/common_pb.js";
import type { ExecuteResponse, RegistryCommand } from "./gen/aiws/engine/v1/registry_pb.js";
import { RegistryCommandSchema } from "./gen/aiws/engine/v1/registry_pb.js";
import { RunState, StartRunRequestSchema, type Run } from "./gen/aiws/engine/v1/run_pb.js";
import type { PraxisClients } from "./connect.js";
import { Backoff, isTransient, sleep } from "./worker.js";

/** A JSON value as JSON.parse returns it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/** `value` as canonical JSON for an `*Json` field: sorted keys, no whitespace. */
export function toJson(value: unknown): string {
  const text = JSON.stringify(canonical(value));
  if (text === undefined) throw new TypeError(`praxis: ${typeof value} is not JSON`);
  return text;
}

/** Parses an `*Json` field as a T (the empty string is null). The type is not checked. */
export function fromJson<T = Json>(text: string): T {
  return JSON.parse(text === "" ? "null" : text) as T;
}

/** Whether a run state is final: COMPLETED, FAILED or CANCELLED. */
export function isTerminal(state: RunState): boolean {
  return state === RunState.COMPLETED || state === RunState.FAILED || state === RunState.CANCELLED;
}

/** resultOf's error for a run that did not complete. */
export class RunFailed extends Error {
  constructor(
    readonly runId: string,
    readonly state: RunState,
    readonly resultReason: string,
    readonly resultError: string,
  ) {
    super(`praxis: run ${runId} ended ${RunState[state]}: ${resultReason} ${resultError}`.trim());
    this.name = "RunFailed";
  }
}

/** The parsed result of a COMPLETED run; throws RunFailed for any other state. */
export function resultOf<T = Json>(run: Run): T {
  if (run.state !== RunState.COMPLETED) throw new RunFailed(run.runId, run.state, run.resultReason, run.resultError);
  return fromJson<T>(run.resultJson);
}

async function retryTransient<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const backoff = new Backoff();
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!isTransient(err) || !(await sleep(backoff.next(), signal))) throw err;
    }
  }
}

/**
 * Starts a run (a requestId is generated when empty; retrying it returns the same run)
 * and follows it with WatchRun until COMPLETED, FAILED or CANCELLED, watching again
 * after transient errors and server restarts. Resolves to the final Run (read it with
 * resultOf). `signal` ends the wait.
 */
export async function runAndWait(
  client: PraxisClients,
  request: MessageInitShape<typeof StartRunRequestSchema>,
  options: { signal?: AbortSignal } = {},
): Promise<Run> {
  const req = create(StartRunRequestSchema, request);
  if (req.requestId === "") req.requestId = `run-${randomBytes(8).toString("hex")}`;
  const started = await retryTransient(() => client.runs.startRun(req, { signal: options.signal }), options.signal);
  return waitForRun(client, started.run?.runId ?? "", options);
}

/** Follows a run with WatchRun until it is terminal; resolves to its final snapshot. */
export async function waitForRun(client: PraxisClients, runId: string, options: { signal?: AbortSignal } = {}): Promise<Run> {
  const backoff = new Backoff();
  for (;;) {
    try {
      for await (const snapshot of client.runs.watchRun({ runId }, { signal: options.signal })) {
        if (snapshot.run && isTerminal(snapshot.run.state)) return snapshot.run;
      }
    } catch (err) {
      if (!isTransient(err)) throw err;
    }
    if (!(await sleep(backoff.next(), options.signal))) throw new Error("praxis: waitForRun aborted");
  }
}

/**
 * The human-tool flow for a registry command that needs an approval (REGISTER, ACTIVATE
 * or REJECT; its approvalId is set here): Review it under `epochs` (read with GetEpochs
 * when absent), CreateApproval of the exact material digest as `approver` (a client
 * holding the human's token), then Execute it with that approvalId, one requestId reused
 * on every retry of a transient error. Resolves to the ExecuteResponse.
 */
export async function reviewApproveExecute(
  client: PraxisClients,
  approver: PraxisClients,
  command: MessageInitShape<typeof RegistryCommandSchema>,
  epochs?: Epochs,
): Promise<ExecuteResponse> {
  const cmd: RegistryCommand = clone(RegistryCommandSchema, create(RegistryCommandSchema, command));
  const c = cmd.command;
  if (c.case !== "register" && c.case !== "activate" && c.case !== "reject") {
    throw new TypeError("praxis: reviewApproveExecute takes a REGISTER, ACTIVATE or REJECT command");
  }
  const workOrderId = c.value.ref?.workOrderId ?? "";
  const current =
    epochs ?? (await retryTransient(() => client.registry.getEpochs({ workOrderId }))).epochs;
  const review = await retryTransient(() => client.registry.review({ epochs: current, command: cmd }));
  const approvalId = `approval-${randomBytes(8).toString("hex")}`;
  await retryTransient(() =>
    approver.approvals.createApproval({
      approvalId,
      materialDigest: review.materialDigest,
      expiresAtMs: BigInt(Date.now() + 10 * 60 * 1000),
      workOrderId,
    }),
  );
  c.value.approvalId = approvalId;
  const requestId = `execute-${randomBytes(8).toString("hex")}`;
  return retryTransient(() => client.registry.execute({ epochs: current, requestId, command: cmd }));
}
