import { Code, ConnectError } from "@connectrpc/connect";
import {
  BadRequestSchema,
  ErrorInfoSchema,
  type BadRequest_FieldViolation,
} from "./gen/google/rpc/error_details_pb.js";

/** The `google.rpc.ErrorInfo.domain` of every error the engine reports. */
export const ERROR_DOMAIN = "engine.aiws";

/** The outcome of a failed call, as clients and conformance vectors compare it. */
export interface RpcErrorReason {
  /** The gRPC status code. */
  code: Code;
  /** The canonical name of the code: "FAILED_PRECONDITION", "NOT_FOUND", ... */
  codeName: string;
  /**
   * The engine's `ErrorInfo.reason`, the name of an `ErrorReason` value such as
   * "EPOCH_MISMATCH"; "" when the status carries no ErrorInfo of the engine's domain.
   */
  reason: string;
}

const CODE_NAMES = [
  "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
  "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
  "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

/** The canonical name of a gRPC code, as the protos spell it: "FAILED_PRECONDITION". */
export function codeName(code: Code): string {
  return CODE_NAMES[code] ?? `CODE(${code})`;
}

/**
 * Reads the code and the engine reason out of a failed call. The reason comes from the
 * `google.rpc.ErrorInfo` in the `grpc-status-details-bin` trailer. Any other error is
 * reported as the code ConnectError.from gives it (UNKNOWN for a plain Error). Compare
 * with `ErrorReason[ErrorReason.EPOCH_MISMATCH]` or the literal name; never with the
 * message text.
 */
export function errorReason(err: unknown): RpcErrorReason {
  const error = ConnectError.from(err);
  const info = error.findDetails(ErrorInfoSchema).find((i) => i.domain === ERROR_DOMAIN);
  return { code: error.code, codeName: codeName(error.code), reason: info?.reason ?? "" };
}

/** The `google.rpc.BadRequest` field violations of a failed call; [] when there are none. */
export function fieldViolations(err: unknown): BadRequest_FieldViolation[] {
  return ConnectError.from(err)
    .findDetails(BadRequestSchema)
    .flatMap((b) => b.fieldViolations);
}
