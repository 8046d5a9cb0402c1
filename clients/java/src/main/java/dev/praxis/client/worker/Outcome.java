package dev.praxis.client.worker;

import dev.praxis.aiws.engine.v1.EffectOutcome;
import dev.praxis.client.Decimals;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * How an attempt settles (docs/workers.md section 2): {@link #applied}, {@link #notApplied}
 * or {@link #uncertain}, with an optional cost in microcredits. Return one from a handler (a
 * plain return value {@code X} means {@code applied(X)}), or throw {@link #asException()}.
 */
public final class Outcome {
  private final boolean complete;
  private final Object result;
  private final String error;
  private final boolean retryable;
  private final EffectOutcome effect;
  private final String cost;

  private Outcome(
      boolean complete, Object result, String error, boolean retryable, EffectOutcome effect, String cost) {
    this.complete = complete;
    this.result = result;
    this.error = error;
    this.retryable = retryable;
    this.effect = effect;
    this.cost = cost;
  }

  /** Completes with {@code result} (encoded with {@link dev.praxis.client.Json}), effect APPLIED. */
  public static Outcome applied(Object result) {
    return new Outcome(true, result, "", false, EffectOutcome.EFFECT_OUTCOME_APPLIED, "");
  }

  /**
   * Fails with effect NOT_APPLIED.
   *
   * @param error what went wrong, shown in the run's node errors
   * @param retryable whether a new attempt could succeed; false fails the node at once
   */
  public static Outcome notApplied(String error, boolean retryable) {
    return new Outcome(
        false, null, Objects.requireNonNull(error, "error"), retryable,
        EffectOutcome.EFFECT_OUTCOME_NOT_APPLIED, "");
  }

  /**
   * Fails with effect UNCERTAIN: the worker cannot tell whether the effect happened, so the
   * node is BLOCKED until a human reconciles it (never retried on its own).
   */
  public static Outcome uncertain(String error) {
    return new Outcome(
        false, null, Objects.requireNonNull(error, "error"), false,
        EffectOutcome.EFFECT_OUTCOME_UNCERTAIN, "");
  }

  /** Completes with {@code result} but effect UNCERTAIN: the node is BLOCKED for a human. */
  public static Outcome uncertainResult(Object result) {
    return new Outcome(true, result, "", false, EffectOutcome.EFFECT_OUTCOME_UNCERTAIN, "");
  }

  /** The same outcome with the attempt's cost in microcredits (never a binary float). */
  public Outcome withCost(BigDecimal microcredits) {
    return withCost(Decimals.format(microcredits));
  }

  /**
   * The same outcome with the attempt's cost as a canonical decimal string ({@code "12.5"}). A
   * cost that is not canonical and non-negative is a handler bug: the attempt then fails, not
   * retryable, with {@code invalid cost "<text>": <why>}.
   */
  public Outcome withCost(String microcredits) {
    return new Outcome(complete, result, error, retryable, effect, Objects.requireNonNull(microcredits));
  }

  /** This outcome as an exception a handler can throw. */
  public OutcomeException asException() {
    return new OutcomeException(this);
  }

  /** True for a completion (a result), false for a failure. */
  public boolean isComplete() {
    return complete;
  }

  /** The result of a completion. */
  public Object result() {
    return result;
  }

  /** The error text of a failure; empty for a completion. */
  public String error() {
    return error;
  }

  /** Whether a failure may be retried. */
  public boolean retryable() {
    return retryable;
  }

  /** The effect outcome settled. */
  public EffectOutcome effect() {
    return effect;
  }

  /** The cost in microcredits as given; empty for none. */
  public String cost() {
    return cost;
  }

  @Override
  public String toString() {
    return (complete ? "complete" : "fail " + error + (retryable ? " (retryable)" : ""))
        + " " + effect + (cost.isEmpty() ? "" : " cost " + cost);
  }

  /** An {@link Outcome} thrown from a handler; settles exactly as returning it would. */
  public static final class OutcomeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Outcome outcome;

    OutcomeException(Outcome outcome) {
      super(outcome.complete ? "outcome " + outcome.effect : outcome.error, null, false, false);
      this.outcome = outcome;
    }

    /** The outcome to settle with. */
    public Outcome outcome() {
      return outcome;
    }
  }
}
