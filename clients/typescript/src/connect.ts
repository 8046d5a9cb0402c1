import { createClient, type Client, type CallOptions, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager, type GrpcTransportOptions } from "@connectrpc/connect-node";
import type { JsonValue } from "@bufbuild/protobuf";
import { bearerAuth } from "./credentials.js";
import { invokeJson, invokeStreamJson, type InvokeResult } from "./invoke.js";
import {
  AdminService,
  ApprovalService,
  EventService,
  RegistryService,
  RunService,
  TaskService,
} from "./v1.js";
import { TestClockService } from "./testing-v1.js";

/** A gRPC connection to Praxis with a typed client for every service. */
export interface PraxisClients {
  /** The gRPC (HTTP/2) transport all clients share. */
  transport: Transport;
  registry: Client<typeof RegistryService>;
  approval: Client<typeof ApprovalService>;
  admin: Client<typeof AdminService>;
  run: Client<typeof RunService>;
  task: Client<typeof TaskService>;
  event: Client<typeof EventService>;
  /** Served only by a server started in test-clock mode. */
  testClock: Client<typeof TestClockService>;
  /** invokeJson on this connection. */
  invokeJson(service: string, method: string, request: JsonValue | string, options?: CallOptions): Promise<InvokeResult>;
  /** invokeStreamJson on this connection. */
  invokeStreamJson(
    service: string,
    method: string,
    request: JsonValue | string,
    options?: CallOptions,
  ): AsyncIterable<JsonValue>;
  /** Closes the HTTP/2 connection; calls after this fail. */
  close(): void;
}

/** Options of connect(); any other gRPC transport option may be passed through. */
export type ConnectOptions = Partial<Omit<GrpcTransportOptions, "baseUrl" | "sessionManager">> & {
  /** Interceptors run after the bearer-token interceptor. */
  interceptors?: Interceptor[];
};

/**
 * Connects to Praxis at `address`: "127.0.0.1:50051" (plaintext HTTP/2) or a URL with
 * scheme ("https://praxis.example:443" for TLS). Every call carries `token` as a bearer
 * credential (none when it is empty). The connection opens on the first call.
 */
export function connect(address: string, token?: string, options: ConnectOptions = {}): PraxisClients {
  const baseUrl = /^https?:\/\//.test(address) ? address : `http://${address}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  const transport = createGrpcTransport({
    ...options,
    baseUrl,
    sessionManager,
    interceptors: [...(token ? [bearerAuth(token)] : []), ...(options.interceptors ?? [])],
  });
  return {
    transport,
    registry: createClient(RegistryService, transport),
    approval: createClient(ApprovalService, transport),
    admin: createClient(AdminService, transport),
    run: createClient(RunService, transport),
    task: createClient(TaskService, transport),
    event: createClient(EventService, transport),
    testClock: createClient(TestClockService, transport),
    invokeJson: (service, method, request, callOptions) =>
      invokeJson(transport, service, method, request, callOptions),
    invokeStreamJson: (service, method, request, callOptions) =>
      invokeStreamJson(transport, service, method, request, callOptions),
    close: () => sessionManager.abort(),
  };
}
