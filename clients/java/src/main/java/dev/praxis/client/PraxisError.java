package dev.praxis.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import dev.praxis.aiws.engine.v1.ErrorReason;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a failed call reports: the gRPC code, the engine's {@code ErrorInfo.reason} and any
 * {@code BadRequest} field violations, read from the {@code grpc-status-details-bin}
 * trailer. Branch on {@link #code()} and {@link #reason()}, never on {@link #message()}.
 *
 * <pre>{@code
 * try {
 *   clients.registry().getEpochs(request);
 * } catch (StatusRuntimeException e) {
 *   PraxisError err = PraxisError.from(e);
 *   if (err.is(ErrorReason.EPOCH_MISMATCH)) { ... }
 * }
 * }</pre>
 */
public final class PraxisError {
  /** The {@code ErrorInfo.domain} of every engine error. */
  public static final String DOMAIN = "engine.aiws";

  /** One {@code google.rpc.BadRequest.FieldViolation}. */
  public record FieldViolation(String field, String description, String reason) {}

  private final Status.Code code;
  private final String message;
  private final String reason;
  private final Map<String, String> metadata;
  private final List<FieldViolation> fieldViolations;

  private PraxisError(
      Status.Code code,
      String message,
      String reason,
      Map<String, String> metadata,
      List<FieldViolation> fieldViolations) {
    this.code = code;
    this.message = message;
    this.reason = reason;
    this.metadata = Map.copyOf(metadata);
    this.fieldViolations = List.copyOf(fieldViolations);
  }

  /**
   * Reads the error carried by a failed call ({@code StatusRuntimeException} or {@code
   * StatusException}, possibly wrapped). A throwable that carries no gRPC status gives code
   * {@code UNKNOWN} and no reason.
   */
  public static PraxisError from(Throwable t) {
    Objects.requireNonNull(t, "t");
    Status status = Status.fromThrowable(t);
    com.google.rpc.Status details = StatusProto.fromThrowable(t);
    return from(status.getCode(), status.getDescription(), details);
  }

  /**
   * Reads an error from a code and the decoded {@code google.rpc.Status} details (null when
   * the trailer was absent).
   */
  public static PraxisError from(
      Status.Code code, String message, com.google.rpc.Status details) {
    String reason = null;
    Map<String, String> metadata = Map.of();
    List<FieldViolation> violations = new ArrayList<>();
    if (details != null) {
      for (Any any : details.getDetailsList()) {
        try {
          if (any.is(ErrorInfo.class)) {
            ErrorInfo info = any.unpack(ErrorInfo.class);
            if (reason == null && DOMAIN.equals(info.getDomain())) {
              reason = info.getReason();
              metadata = info.getMetadataMap();
            }
          } else if (any.is(BadRequest.class)) {
            for (BadRequest.FieldViolation v : any.unpack(BadRequest.class).getFieldViolationsList()) {
              violations.add(new FieldViolation(v.getField(), v.getDescription(), v.getReason()));
            }
          }
        } catch (InvalidProtocolBufferException e) {
          // A malformed detail is skipped: the code still tells the caller what happened.
        }
      }
    }
    return new PraxisError(code, message == null ? "" : message, reason, metadata, violations);
  }

  /** The canonical gRPC status code. */
  public Status.Code code() {
    return code;
  }

  /** The status message, for people only. */
  public String message() {
    return message;
  }

  /**
   * The engine's {@code ErrorInfo.reason} (an {@link ErrorReason} value name such as {@code
   * "EPOCH_MISMATCH"}), or empty when the status carried no engine {@code ErrorInfo}.
   */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /**
   * The reason as an enum value: empty without a reason, {@link ErrorReason#UNRECOGNIZED}
   * for a reason newer than this client (treat it like its status code).
   */
  public Optional<ErrorReason> errorReason() {
    if (reason == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ErrorReason.valueOf(reason));
    } catch (IllegalArgumentException e) {
      return Optional.of(ErrorReason.UNRECOGNIZED);
    }
  }

  /** Reports whether the error's reason is {@code expected}. */
  public boolean is(ErrorReason expected) {
    return expected.name().equals(reason);
  }

  /** The {@code ErrorInfo.metadata} of the engine's error; empty if none. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** Every {@code BadRequest} field violation, in the order sent; empty if none. */
  public List<FieldViolation> fieldViolations() {
    return fieldViolations;
  }

  @Override
  public String toString() {
    return code + (reason == null ? "" : " " + reason) + (message.isEmpty() ? "" : ": " + message);
  }
}
