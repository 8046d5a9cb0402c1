import { createClient, type Client, type CallOptions, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager, type GrpcTransportOptions } from "@connectrpc/connect-node";
import type { JsonValue } from "@bufbuild/protobuf";
import { bearerAuth } from "./credentials.js";
import { invokeJson, invokeStreamJson, type InvokeResult } from "./invoke.js";
import {
  AdminService,
  ApprovalService,
  AssessmentService,
  ContractService,
  EventService,
  HandoffService,
  ReconciliationService,
  RegistryService,
  RunService,
  SimulationService,
  TaskService,
  WaitService,
} from "./v1.js";
import { TestClockService } from "./testing-v1.js";

/**
 * A gRPC connection to Praxis with a typed client for every service, under the names
 * every Praxis client uses (docs/workers.md, section 11).
 */
export interface PraxisClients {
  /** The gRPC (HTTP/2) transport all clients share. */
  transport: Transport;
  registry: Client<typeof RegistryService>;
  approvals: Client<typeof ApprovalService>;
  admin: Client<typeof AdminService>;
  runs: Client<typeof RunService>;
  tasks: Client<typeof TaskService>;
  events: Client<typeof EventService>;
  contracts: Client<typeof ContractService>;
  reconciliations: Client<typeof ReconciliationService>;
  waits: Client<typeof WaitService>;
  assessments: Client<typeof AssessmentService>;
  handoffs: Client<typeof HandoffService>;
  /** Dry runs of a definition by the server's pure core. */
  simulations: Client<typeof SimulationService>;
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
    approvals: createClient(ApprovalService, transport),
    admin: createClient(AdminService, transport),
    runs: createClient(RunService, transport),
    tasks: createClient(TaskService, transport),
    events: createClient(EventService, transport),
    contracts: createClient(ContractService, transport),
    reconciliations: createClient(ReconciliationService, transport),
    waits: createClient(WaitService, transport),
    assessments: createClient(AssessmentService, transport),
    handoffs: createClient(HandoffService, transport),
    simulations: createClient(SimulationService, transport),
    testClock: createClient(TestClockService, transport),
    invokeJson: (service, method, request, callOptions) =>
      invokeJson(transport, service, method, request, callOptions),
    invokeStreamJson: (service, method, request, callOptions) =>
      invokeStreamJson(transport, service, method, request, callOptions),
    close: () => sessionManager.abort(),
  };
}
