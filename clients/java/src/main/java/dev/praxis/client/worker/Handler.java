package dev.praxis.client.worker;

/**
 * A synchronous handler: runs on one of the worker's threads and returns the result (any
 * JSON-encodable value: an APPLIED completion) or an {@link Outcome}. Throwing an exception
 * (a crash) fails the attempt with {@code "<Type>: <message>"}: retryable, NOT_APPLIED, when
 * the node declares its effects {@code none} or {@code idempotent} ({@link
 * TaskContext#isRetrySafe()}); UNCERTAIN, not retryable, on any other node (the node then
 * waits for a human's reconciliation). Throw {@link Outcome#asException()} to say what
 * happened instead. When the attempt is cancelled the thread is interrupted and {@link
 * TaskContext#isCancelled()} turns true.
 */
@FunctionalInterface
public interface Handler {
  /**
   * Does the work of one attempt.
   *
   * @param ctx the claimed attempt, its input and its cancellation
   * @return the result or an {@link Outcome}
   * @throws Exception to fail the attempt (settled by the node's declared effects unless it
   *     is an {@link Outcome.OutcomeException})
   */
  Object handle(TaskContext ctx) throws Exception;
}
