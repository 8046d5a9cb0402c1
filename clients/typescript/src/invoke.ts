import {
  createRegistry,
  fromJson,
  toJson,
  type DescMethod,
  type DescService,
  type JsonValue,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import { createClient, type CallOptions, type Transport } from "@connectrpc/connect";
import * as testingv1 from "./testing-v1.js";
import * as v1 from "./v1.js";
import { file_google_rpc_error_details } from "./gen/google/rpc/error_details_pb.js";
import { file_google_rpc_status } from "./gen/google/rpc/status_pb.js";
import { errorReason, type RpcErrorReason } from "./errors.js";

/** Every Praxis file descriptor, with google.rpc.Status and its details. */
export const praxisRegistry: Registry = createRegistry(
  v1.file_aiws_engine_v1_admin,
  v1.file_aiws_engine_v1_approval,
  v1.file_aiws_engine_v1_assessment,
  v1.file_aiws_engine_v1_common,
  v1.file_aiws_engine_v1_config,
  v1.file_aiws_engine_v1_contract,
  v1.file_aiws_engine_v1_errors,
  v1.file_aiws_engine_v1_event,
  v1.file_aiws_engine_v1_handoff,
  v1.file_aiws_engine_v1_inbox,
  v1.file_aiws_engine_v1_notification,
  v1.file_aiws_engine_v1_principal,
  v1.file_aiws_engine_v1_reconciliation,
  v1.file_aiws_engine_v1_registry,
  v1.file_aiws_engine_v1_run,
  v1.file_aiws_engine_v1_schedule,
  v1.file_aiws_engine_v1_simulation,
  v1.file_aiws_engine_v1_task,
  v1.file_aiws_engine_v1_wait,
  v1.file_aiws_engine_v1_work_order,
  testingv1.file_aiws_engine_testing_v1_clock,
  file_google_rpc_error_details,
  file_google_rpc_status,
);

/** Packages tried, in order, for a service name given without its package. */
const SERVICE_PACKAGES = ["aiws.engine.v1", "aiws.engine.testing.v1"];

/**
 * Resolves a method by service and method name. The service is a full name
 * ("aiws.engine.v1.RegistryService") or a bare one ("RegistryService",
 * "TestClockService"); the method is its proto name ("GetEpochs"). Throws if unknown.
 */
export function findMethod(service: string, method: string): DescMethod {
  const names = service.includes(".")
    ? [service]
    : SERVICE_PACKAGES.map((pkg) => `${pkg}.${service}`);
  for (const name of names) {
    const desc: DescService | undefined = praxisRegistry.getService(name);
    if (desc === undefined) continue;
    const found = desc.methods.find((m) => m.name === method);
    if (found === undefined) {
      throw new Error(`service ${desc.typeName} has no method ${JSON.stringify(method)}`);
    }
    return found;
  }
  throw new Error(`unknown service ${JSON.stringify(service)}`);
}

/** The outcome of invokeJson: the proto-JSON response, or the failed call's reason. */
export type InvokeResult =
  | { ok: true; response: JsonValue }
  | { ok: false; error: RpcErrorReason };

/**
 * Calls one unary RPC by service and method name (see findMethod) with a request in
 * proto-JSON form (a parsed value or JSON text) and returns the response in proto-JSON
 * form, or the code and reason of the failed call. Unknown request fields are rejected.
 * Local problems (unknown method, streaming method, a request that is not valid
 * proto-JSON) throw instead.
 */
export async function invokeJson(
  transport: Transport,
  service: string,
  method: string,
  request: JsonValue | string,
  options?: CallOptions,
): Promise<InvokeResult> {
  const desc = findMethod(service, method);
  if (desc.methodKind !== "unary") {
    throw new Error(`${desc.parent.typeName}.${desc.name} is ${desc.methodKind}; invokeJson calls unary methods only`);
  }
  const json: JsonValue = typeof request === "string" ? (JSON.parse(request) as JsonValue) : request;
  const input = fromJson(desc.input, json, { registry: praxisRegistry });
  const client = createClient(desc.parent, transport) as unknown as Record<
    string,
    (input: Message, options?: CallOptions) => Promise<Message>
  >;
  let output: Message;
  try {
    output = await client[desc.localName]!(input, options);
  } catch (err) {
    return { ok: false, error: errorReason(err) };
  }
  return { ok: true, response: toJson(desc.output, output, { registry: praxisRegistry }) };
}

/**
 * Opens one server-streaming RPC by service and method name (see findMethod), such as
 * RunService.WatchRun or EventService.StreamEvents, with a request in proto-JSON form (a
 * parsed value or JSON text), and returns its messages in proto-JSON form as an async
 * iterable. The iteration ends when the server ends the stream with OK; a failed call
 * (refused at once or ended with an error) throws its ConnectError from the iteration:
 * read it with errorReason. Abort `options.signal` to cancel the stream. Unknown request
 * fields are rejected. Local problems (unknown method, a method that is not
 * server-streaming, a request that is not valid proto-JSON) throw at once, before any call.
 */
export function invokeStreamJson(
  transport: Transport,
  service: string,
  method: string,
  request: JsonValue | string,
  options?: CallOptions,
): AsyncIterable<JsonValue> {
  const desc = findMethod(service, method);
  if (desc.methodKind !== "server_streaming") {
    throw new Error(
      `${desc.parent.typeName}.${desc.name} is ${desc.methodKind}; invokeStreamJson calls server-streaming methods only`,
    );
  }
  const json: JsonValue = typeof request === "string" ? (JSON.parse(request) as JsonValue) : request;
  const input = fromJson(desc.input, json, { registry: praxisRegistry });
  const client = createClient(desc.parent, transport) as unknown as Record<
    string,
    (input: Message, options?: CallOptions) => AsyncIterable<Message>
  >;
  const responses = client[desc.localName]!(input, options);
  return (async function* () {
    for await (const output of responses) {
      yield toJson(desc.output, output, { registry: praxisRegistry });
    }
  })();
}
