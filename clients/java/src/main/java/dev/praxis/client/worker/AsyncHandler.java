package dev.praxis.client.worker;

import java.util.concurrent.CompletableFuture;

/**
 * An asynchronous handler: returns at once with a future of the result (any JSON-encodable
 * value) or of an {@link Outcome}. A future completed exceptionally fails the attempt like a
 * thrown exception does ({@link Handler}). Watch {@link TaskContext#cancelled()} to stop
 * early; the runtime does not cancel the returned future itself.
 */
@FunctionalInterface
public interface AsyncHandler {
  /**
   * Starts the work of one attempt.
   *
   * @param ctx the claimed attempt, its input and its cancellation
   * @return the future result or {@link Outcome}
   */
  CompletableFuture<?> handle(TaskContext ctx);
}
