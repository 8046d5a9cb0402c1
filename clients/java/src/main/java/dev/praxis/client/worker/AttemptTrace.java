package dev.praxis.client.worker;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * Continuing the attempt's trace in the worker (optional: needs {@code
 * io.opentelemetry:opentelemetry-api} on the class path).
 *
 * <p>A server that exports traces hands each task its attempt's span as a W3C {@code traceparent}
 * ({@link TaskContext#traceparent()}). When the OpenTelemetry API is present, the worker runs the
 * handler with that span made current as a <em>remote</em> parent, so a span the handler starts
 * (with whatever SDK the program installed) is a child of the attempt, in the run's trace.
 * Without the API, or when the value is empty or not a valid {@code traceparent}, the handler runs
 * as before. The OpenTelemetry classes are touched only through {@link Otel}, which is loaded only
 * when the API is present.
 */
final class AttemptTrace {
  private AttemptTrace() {}

  /** What {@link #enter} returns: closing it restores the thread's previous context. */
  interface Entered extends AutoCloseable {
    @Override
    void close();
  }

  private static final Entered NOTHING = () -> {};

  /** True when the OpenTelemetry API is on the class path. */
  static final boolean AVAILABLE = present();

  private static boolean present() {
    try {
      ClassLoader loader = AttemptTrace.class.getClassLoader();
      Class.forName("io.opentelemetry.context.Context", false, loader);
      Class.forName("io.opentelemetry.api.trace.Span", false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** A parsed W3C {@code traceparent}: lowercase hex ids and flags. */
  record Parent(String traceId, String spanId, String flags) {}

  private static final int LENGTH = 55; // "vv-" + 32 + "-" + 16 + "-" + 2

  /**
   * Parses {@code value} strictly per W3C Trace Context: a lowercase-hex version other than
   * {@code ff} (version {@code 00}: exactly 55 characters; a later version: the {@code 00} fields,
   * then nothing or {@code -} and more), a non-zero 32-hex trace id, a non-zero 16-hex parent id
   * and 2-hex flags. Null for an empty or malformed value.
   */
  static Parent parse(String value) {
    if (value == null || value.length() < LENGTH) {
      return null;
    }
    String version = value.substring(0, 2);
    if (!isHex(version) || version.equals("ff")) {
      return null;
    }
    if (version.equals("00") && value.length() != LENGTH) {
      return null;
    }
    if (value.length() > LENGTH && value.charAt(LENGTH) != '-') {
      return null;
    }
    if (value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
      return null;
    }
    String traceId = value.substring(3, 35);
    String spanId = value.substring(36, 52);
    String flags = value.substring(53, 55);
    if (!isHex(traceId) || !isHex(spanId) || !isHex(flags) || isZero(traceId) || isZero(spanId)) {
      return null;
    }
    return new Parent(traceId, spanId, flags);
  }

  private static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false; // upper case is invalid too (W3C: lowercase hex)
      }
    }
    return true;
  }

  private static boolean isZero(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) != '0') {
        return false;
      }
    }
    return true;
  }

  /**
   * Makes the attempt's span ({@code traceparent}) the current remote parent on this thread until
   * the result is closed; does nothing when the API is missing or the value is empty or malformed.
   * Never throws.
   */
  static Entered enter(String traceparent) {
    if (!AVAILABLE) {
      return NOTHING;
    }
    Parent parent = parse(traceparent);
    if (parent == null) {
      return NOTHING;
    }
    try {
      return Otel.enter(parent);
    } catch (LinkageError | RuntimeException e) {
      // An API too old for these calls: the handler runs as without one, never fails here.
      return NOTHING;
    }
  }

  /** The only code that names OpenTelemetry types; loaded only when {@link #AVAILABLE}. */
  private static final class Otel {
    static Entered enter(Parent parent) {
      // Only the sampled bit is defined by Level 1; the others are ignored.
      byte flags = (byte) (Integer.parseInt(parent.flags(), 16) & 0x01);
      SpanContext remote = SpanContext.createFromRemoteParent(parent.traceId(), parent.spanId(),
          TraceFlags.fromByte(flags), TraceState.getDefault());
      Scope scope = Span.wrap(remote).storeInContext(Context.current()).makeCurrent();
      return scope::close;
    }
  }
}
