import { test } from "node:test";
import assert from "node:assert/strict";
import { create, toBinary } from "@bufbuild/protobuf";
import { anyPack, type Any } from "@bufbuild/protobuf/wkt";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { Code, ConnectError, codeName, errorReason, fieldViolations } from "@praxis-engine/client";
import { BadRequestSchema, ErrorInfoSchema } from "@praxis-engine/client/gen/google/rpc/error_details_pb";
import { StatusSchema } from "@praxis-engine/client/gen/google/rpc/status_pb";

/** The trailers a gRPC server sends for a failed call with a google.rpc.Status. */
function trailers(code: number, details: Any[]): Headers {
  const status = create(StatusSchema, { code, message: "text is not part of the contract", details });
  return new Headers({
    "grpc-status": String(code),
    "grpc-message": "text%20is%20not%20part%20of%20the%20contract",
    "grpc-status-details-bin": Buffer.from(toBinary(StatusSchema, status)).toString("base64").replace(/=+$/, ""),
  });
}

test("reason and field violations are read from grpc-status-details-bin", () => {
  const err = findTrailerError(trailers(3, [
    anyPack(ErrorInfoSchema, create(ErrorInfoSchema, { domain: "engine.aiws", reason: "DECIMAL_NOT_CANONICAL" })),
    anyPack(BadRequestSchema, create(BadRequestSchema, {
      fieldViolations: [{ field: "budget_microcredits", description: "1.50 is not canonical" }],
    })),
  ]));
  assert.ok(err);
  assert.deepEqual(errorReason(err), { code: Code.InvalidArgument, codeName: "INVALID_ARGUMENT", reason: "DECIMAL_NOT_CANONICAL" });
  assert.deepEqual(fieldViolations(err).map((v) => v.field), ["budget_microcredits"]);
});

test("an ErrorInfo of another domain is not an engine reason", () => {
  const err = findTrailerError(trailers(9, [
    anyPack(ErrorInfoSchema, create(ErrorInfoSchema, { domain: "googleapis.com", reason: "EPOCH_MISMATCH" })),
  ]));
  assert.deepEqual(errorReason(err), { code: Code.FailedPrecondition, codeName: "FAILED_PRECONDITION", reason: "" });
  assert.deepEqual(fieldViolations(err), []);
});

test("errors without details keep their code", () => {
  assert.deepEqual(errorReason(new ConnectError("down", Code.Unavailable)),
    { code: Code.Unavailable, codeName: "UNAVAILABLE", reason: "" });
  assert.equal(errorReason(new Error("boom")).codeName, "UNKNOWN");
});

test("code names are the canonical gRPC spellings", () => {
  assert.equal(codeName(Code.Canceled), "CANCELLED");
  assert.equal(codeName(Code.FailedPrecondition), "FAILED_PRECONDITION");
  assert.equal(codeName(Code.Unauthenticated), "UNAUTHENTICATED");
  assert.equal(codeName(42 as Code), "CODE(42)");
});
