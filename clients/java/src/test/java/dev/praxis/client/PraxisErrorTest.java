package dev.praxis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import dev.praxis.aiws.engine.v1.ErrorReason;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PraxisErrorTest {
  static StatusRuntimeException failure(Code code, Any... details) {
    com.google.rpc.Status.Builder status =
        com.google.rpc.Status.newBuilder().setCode(code.getNumber()).setMessage("human text");
    for (Any detail : details) {
      status.addDetails(detail);
    }
    return StatusProto.toStatusRuntimeException(status.build());
  }

  static Any info(String domain, String reason) {
    return Any.pack(
        ErrorInfo.newBuilder().setDomain(domain).setReason(reason).putMetadata("k", "v").build());
  }

  @Test
  void readsCodeAndReason() {
    PraxisError err = PraxisError.from(failure(Code.FAILED_PRECONDITION, info("engine.aiws", "EPOCH_MISMATCH")));
    assertEquals(Status.Code.FAILED_PRECONDITION, err.code());
    assertEquals(Optional.of("EPOCH_MISMATCH"), err.reason());
    assertEquals(Optional.of(ErrorReason.EPOCH_MISMATCH), err.errorReason());
    assertTrue(err.is(ErrorReason.EPOCH_MISMATCH));
    assertFalse(err.is(ErrorReason.INSTALLATION_MISMATCH));
    assertEquals("v", err.metadata().get("k"));
    assertEquals("human text", err.message());
    assertTrue(err.fieldViolations().isEmpty());
  }

  @Test
  void readsFieldViolations() {
    Any bad =
        Any.pack(
            BadRequest.newBuilder()
                .addFieldViolations(
                    BadRequest.FieldViolation.newBuilder()
                        .setField("command.register.ref.run_id")
                        .setDescription("empty")
                        .setReason("FIELD_REQUIRED"))
                .addFieldViolations(
                    BadRequest.FieldViolation.newBuilder().setField("epochs").setDescription("missing"))
                .build());
    PraxisError err = PraxisError.from(failure(Code.INVALID_ARGUMENT, bad, info("engine.aiws", "FIELD_REQUIRED")));
    assertEquals(Status.Code.INVALID_ARGUMENT, err.code());
    assertEquals(Optional.of("FIELD_REQUIRED"), err.reason());
    assertEquals(
        List.of(
            new PraxisError.FieldViolation("command.register.ref.run_id", "empty", "FIELD_REQUIRED"),
            new PraxisError.FieldViolation("epochs", "missing", "")),
        err.fieldViolations());
  }

  @Test
  void ignoresErrorInfoOfOtherDomains() {
    PraxisError err =
        PraxisError.from(
            failure(Code.UNAVAILABLE, info("proxy.example", "UPSTREAM_DOWN"), info("engine.aiws", "SERVER_UNAVAILABLE")));
    assertEquals(Optional.of("SERVER_UNAVAILABLE"), err.reason());
    PraxisError foreignOnly = PraxisError.from(failure(Code.UNAVAILABLE, info("proxy.example", "UPSTREAM_DOWN")));
    assertEquals(Optional.empty(), foreignOnly.reason());
  }

  @Test
  void statusWithoutDetails() {
    PraxisError err = PraxisError.from(Status.UNAUTHENTICATED.withDescription("no").asRuntimeException());
    assertEquals(Status.Code.UNAUTHENTICATED, err.code());
    assertEquals(Optional.empty(), err.reason());
    assertEquals(Optional.empty(), err.errorReason());
  }

  @Test
  void unknownReasonIsUnrecognized() {
    PraxisError err = PraxisError.from(failure(Code.ABORTED, info("engine.aiws", "SOMETHING_NEWER")));
    assertEquals(Optional.of("SOMETHING_NEWER"), err.reason());
    assertEquals(Optional.of(ErrorReason.UNRECOGNIZED), err.errorReason());
  }

  @Test
  void nonGrpcThrowableIsUnknown() {
    PraxisError err = PraxisError.from(new IllegalStateException("boom"));
    assertEquals(Status.Code.UNKNOWN, err.code());
    assertEquals(Optional.empty(), err.reason());
  }
}
