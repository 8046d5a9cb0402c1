package dev.praxis.client.worker;

import dev.praxis.client.PraxisError;

/**
 * A worker could not start, or stopped on its own: a claim failed with {@code UNAUTHENTICATED}
 * (a bad token), {@code PERMISSION_DENIED}, {@code INVALID_ARGUMENT} or {@code UNIMPLEMENTED}.
 * {@link #error()} carries the code and the engine's reason.
 */
public final class WorkerException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient PraxisError error;

  WorkerException(String message, PraxisError error, Throwable cause) {
    super(message, cause);
    this.error = error;
  }

  /** The claim's error; null for invalid options. */
  public PraxisError error() {
    return error;
  }
}
