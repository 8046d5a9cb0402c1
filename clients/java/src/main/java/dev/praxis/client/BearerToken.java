package dev.praxis.client;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Call credentials that send {@code authorization: Bearer <token>} on every call.
 *
 * <p>Attach them to a stub with {@code stub.withCallCredentials(new BearerToken(token))}, or
 * use {@link Praxis#connect(String, String)}, which does so for every service.
 */
public final class BearerToken extends CallCredentials {
  /** The metadata key the engine reads the credential from. */
  public static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final String headerValue;

  /**
   * Creates credentials for one token.
   *
   * @param token the bearer token from the local config; not empty, no whitespace
   * @throws IllegalArgumentException if the token is empty or contains whitespace or
   *     non-printable characters (it could not travel as one header value)
   */
  public BearerToken(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty()) {
      throw new IllegalArgumentException("bearer token is empty");
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        throw new IllegalArgumentException("bearer token has a space or non-printable character");
      }
    }
    this.headerValue = "Bearer " + token;
  }

  @Override
  public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
    try {
      Metadata headers = new Metadata();
      headers.put(AUTHORIZATION, headerValue);
      applier.apply(headers);
    } catch (RuntimeException e) {
      applier.fail(Status.UNAUTHENTICATED.withCause(e));
    }
  }

  @Override
  public String toString() {
    return "BearerToken[redacted]";
  }
}
