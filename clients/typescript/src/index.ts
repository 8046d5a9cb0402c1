// Praxis TypeScript client: the generated aiws.engine.v1 contract plus a thin helper
// layer. The test clock lives under "@praxis-engine/client/testing", google.rpc types
// under "@praxis-engine/client/gen/google/rpc/error_details_pb".
export * from "./v1.js";
export { bearerAuth } from "./credentials.js";
export {
  DecimalError,
  checkDecimal,
  decimalFromBigInt,
  decimalFromScaled,
  decimalToBigInt,
  decimalToScaled,
  isCanonicalDecimal,
} from "./decimal.js";
export { EpochMsError, MAX_EPOCH_MS, epochMs, fromEpochMs, toEpochMs } from "./epoch-ms.js";
export { ERROR_DOMAIN, codeName, errorReason, fieldViolations, type RpcErrorReason } from "./errors.js";
export { findMethod, invokeJson, invokeStreamJson, praxisRegistry, type InvokeResult } from "./invoke.js";
export { connect, type ConnectOptions, type PraxisClients } from "./connect.js";
export { Code, ConnectError } from "@connectrpc/connect";
export {
  Applied,
  NotApplied,
  Uncertain,
  Worker,
  WorkerError,
  functionPermitted,
  functionPolicy,
  globMatches,
  progressReport,
  type Cost,
  type FunctionPolicy,
  type Handler,
  type TaskContext,
  type WorkerLogger,
  type WorkerOptions,
  type WorkerStats,
} from "./worker.js";
export {
  RunFailed,
  fromJson,
  isTerminal,
  resultOf,
  reviewApproveExecute,
  runAndWait,
  toJson,
  waitForRun,
  type Json,
} from "./helpers.js";
