package dev.praxis.client;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.praxis.aiws.engine.testing.v1.TestClockServiceGrpc;
import dev.praxis.aiws.engine.v1.AdminServiceGrpc;
import dev.praxis.aiws.engine.v1.ApprovalServiceGrpc;
import dev.praxis.aiws.engine.v1.AssessmentServiceGrpc;
import dev.praxis.aiws.engine.v1.ContractServiceGrpc;
import dev.praxis.aiws.engine.v1.EventServiceGrpc;
import dev.praxis.aiws.engine.v1.HandoffServiceGrpc;
import dev.praxis.aiws.engine.v1.InboxServiceGrpc;
import dev.praxis.aiws.engine.v1.NotificationServiceGrpc;
import dev.praxis.aiws.engine.v1.PrincipalServiceGrpc;
import dev.praxis.aiws.engine.v1.ScheduleServiceGrpc;
import dev.praxis.aiws.engine.v1.SimulationServiceGrpc;
import dev.praxis.aiws.engine.v1.ReconciliationServiceGrpc;
import dev.praxis.aiws.engine.v1.RegistryServiceGrpc;
import dev.praxis.aiws.engine.v1.RunServiceGrpc;
import dev.praxis.aiws.engine.v1.TaskServiceGrpc;
import dev.praxis.aiws.engine.v1.WaitServiceGrpc;
import dev.praxis.aiws.engine.v1.WorkOrderServiceGrpc;
import io.grpc.CallCredentials;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Calls any unary engine RPC by service and method name with a proto-JSON request and
 * returns the proto-JSON response, as conformance runners need; {@link #invokeStream} opens
 * the server streams (WatchRun, StreamEvents) the same way. Failures surface as {@link
 * StatusRuntimeException}; read them with {@link PraxisError#from(Throwable)}.
 *
 * <p>JSON follows the proto3 mapping: input accepts lowerCamelCase or original field names,
 * enum names or numbers, int64 as strings or numbers, and rejects unknown fields; output uses
 * lowerCamelCase names, enum names, int64 as strings and omits fields at their default.
 */
public final class DynamicInvoker {
  private static final Map<String, MethodDescriptor<?, ?>> METHODS =
      methodTable(MethodDescriptor.MethodType.UNARY);
  private static final Map<String, MethodDescriptor<?, ?>> SERVER_STREAMS =
      methodTable(MethodDescriptor.MethodType.SERVER_STREAMING);

  /** An open server stream, from {@link #invokeStream}. */
  public interface StreamCall {
    /**
     * Cancels the stream; the observer then gets {@code onError} with CANCELLED, unless the
     * stream had already ended.
     */
    void cancel();
  }

  private final Channel channel;
  private final CallOptions callOptions;

  /** Creates an invoker that sends {@code credentials} (may be null) on every call. */
  public DynamicInvoker(Channel channel, CallCredentials credentials) {
    this.channel = channel;
    this.callOptions = CallOptions.DEFAULT.withCallCredentials(credentials);
  }

  /**
   * Calls one unary RPC.
   *
   * @param service the service name, short ({@code "RegistryService"}) or full ({@code
   *     "aiws.engine.v1.RegistryService"})
   * @param method the method name, e.g. {@code "GetEpochs"}
   * @param requestJson the request in proto-JSON
   * @return the response in proto-JSON
   * @throws IllegalArgumentException if the method is unknown or not unary, or the JSON does
   *     not parse as the request type
   * @throws StatusRuntimeException if the call fails
   */
  public String invoke(String service, String method, String requestJson) {
    MethodDescriptor<Message, Message> descriptor = lookup(service, method);
    Message request = parseRequest(descriptor, requestJson);
    Message response = ClientCalls.blockingUnaryCall(channel, descriptor, callOptions, request);
    return toJson(response);
  }

  /**
   * Opens one server-streaming RPC, such as {@code RunService.WatchRun} or {@code
   * EventService.StreamEvents}. Each message reaches {@code observer.onNext} in proto-JSON
   * (as {@link #invoke} prints responses); the stream ends with {@code onCompleted} when the
   * server ends it with OK, or with {@code onError} and a {@link StatusRuntimeException}
   * (read it with {@link PraxisError#from(Throwable)}) when the call fails or is cancelled.
   * The observer is called on a gRPC thread.
   *
   * @param service the service name, short or full, as for {@link #invoke}
   * @param method the method name, e.g. {@code "WatchRun"}
   * @param requestJson the request in proto-JSON
   * @param observer receives the messages and the end
   * @return the call, to cancel it early
   * @throws IllegalArgumentException if the method is unknown or not server-streaming, or the
   *     JSON does not parse as the request type (nothing is sent)
   */
  public StreamCall invokeStream(
      String service, String method, String requestJson, StreamObserver<String> observer) {
    MethodDescriptor<Message, Message> descriptor = lookup(SERVER_STREAMS, service, method);
    Message request = parseRequest(descriptor, requestJson);
    ClientCall<Message, Message> call = channel.newCall(descriptor, callOptions);
    ClientCalls.asyncServerStreamingCall(
        call,
        request,
        new StreamObserver<Message>() {
          @Override
          public void onNext(Message message) {
            observer.onNext(toJson(message));
          }

          @Override
          public void onError(Throwable error) {
            observer.onError(error);
          }

          @Override
          public void onCompleted() {
            observer.onCompleted();
          }
        });
    return () -> call.cancel("cancelled by the caller", null);
  }

  /**
   * Parses a proto-JSON request for a method without calling it.
   *
   * @throws IllegalArgumentException as for {@link #invoke}
   */
  public static Message parseRequest(String service, String method, String requestJson) {
    return parseRequest(lookup(service, method), requestJson);
  }

  /** Prints a message in proto-JSON, the way {@link #invoke} prints responses. */
  public static String toJson(Message message) {
    try {
      return JsonFormat.printer().omittingInsignificantWhitespace().print(message);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("engine messages always print as JSON", e);
    }
  }

  /** Every unary method's full name, {@code package.Service/Method}, sorted. */
  public static Iterable<String> unaryMethods() {
    return METHODS.keySet();
  }

  /** Every server-streaming method's full name, {@code package.Service/Method}, sorted. */
  public static Iterable<String> serverStreamingMethods() {
    return SERVER_STREAMS.keySet();
  }

  private static Message parseRequest(MethodDescriptor<Message, Message> descriptor, String json) {
    var marshaller = (MethodDescriptor.PrototypeMarshaller<Message>) descriptor.getRequestMarshaller();
    Message.Builder builder = marshaller.getMessagePrototype().newBuilderForType();
    try {
      JsonFormat.parser().merge(json, builder);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "request JSON does not parse as " + builder.getDescriptorForType().getFullName() + ": "
              + e.getMessage(),
          e);
    }
    return builder.build();
  }

  private static MethodDescriptor<Message, Message> lookup(String service, String method) {
    return lookup(METHODS, service, method);
  }

  @SuppressWarnings("unchecked")
  private static MethodDescriptor<Message, Message> lookup(
      Map<String, MethodDescriptor<?, ?>> table, String service, String method) {
    String fullService = service.contains(".") ? service : qualify(service);
    MethodDescriptor<?, ?> descriptor = table.get(fullService + "/" + method);
    if (descriptor == null) {
      String kind = table == METHODS ? "unary" : "server-streaming";
      throw new IllegalArgumentException("no " + kind + " method " + service + "/" + method);
    }
    return (MethodDescriptor<Message, Message>) descriptor;
  }

  private static String qualify(String service) {
    String testing = TestClockServiceGrpc.SERVICE_NAME;
    if (testing.endsWith("." + service)) {
      return testing;
    }
    return "aiws.engine.v1." + service;
  }

  private static Map<String, MethodDescriptor<?, ?>> methodTable(
      MethodDescriptor.MethodType type) {
    ServiceDescriptor[] services = {
      RegistryServiceGrpc.getServiceDescriptor(),
      ApprovalServiceGrpc.getServiceDescriptor(),
      AdminServiceGrpc.getServiceDescriptor(),
      RunServiceGrpc.getServiceDescriptor(),
      TaskServiceGrpc.getServiceDescriptor(),
      EventServiceGrpc.getServiceDescriptor(),
      ContractServiceGrpc.getServiceDescriptor(),
      ReconciliationServiceGrpc.getServiceDescriptor(),
      WaitServiceGrpc.getServiceDescriptor(),
      AssessmentServiceGrpc.getServiceDescriptor(),
      HandoffServiceGrpc.getServiceDescriptor(),
      PrincipalServiceGrpc.getServiceDescriptor(),
      InboxServiceGrpc.getServiceDescriptor(),
      ScheduleServiceGrpc.getServiceDescriptor(),
      NotificationServiceGrpc.getServiceDescriptor(),
      SimulationServiceGrpc.getServiceDescriptor(),
      WorkOrderServiceGrpc.getServiceDescriptor(),
      TestClockServiceGrpc.getServiceDescriptor(),
    };
    Map<String, MethodDescriptor<?, ?>> table = new TreeMap<>();
    for (ServiceDescriptor service : services) {
      for (MethodDescriptor<?, ?> m : service.getMethods()) {
        if (m.getType() == type) {
          table.put(m.getFullMethodName(), m);
        }
      }
    }
    return Collections.unmodifiableMap(table);
  }
}
