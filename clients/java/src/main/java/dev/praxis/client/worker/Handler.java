package dev.praxis.client.worker;

/**
 * A synchronous handler: runs on one of the worker's threads and returns the result (any
 * JSON-encodable value: an APPLIED completion) or an {@link Outcome}. Throwing an exception
 * fails the attempt retryable, NOT_APPLIED, with {@code "<Type>: <message>"}; throw {@link
 * Outcome#asException()} for anything else. When the attempt is cancelled the thread is
 * interrupted and {@link TaskContext#isCancelled()} turns true.
 */
@FunctionalInterface
public interface Handler {
  /**
   * Does the work of one attempt.
   *
   * @param ctx the claimed attempt, its input and its cancellation
   * @return the result or an {@link Outcome}
   * @throws Exception to fail the attempt (retryable unless it is an {@link
   *     Outcome.OutcomeException})
   */
  Object handle(TaskContext ctx) throws Exception;
}
