package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * EventService delivers the durable, ordered log of run events at least once. A
 * consumer reads from a cursor, and a named subscriber records its position with
 * AckEvents so that it resumes where it acknowledged.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class EventServiceGrpc {

  private EventServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.EventService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListEventsRequest,
      dev.praxis.aiws.engine.v1.ListEventsResponse> getListEventsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListEvents",
      requestType = dev.praxis.aiws.engine.v1.ListEventsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListEventsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListEventsRequest,
      dev.praxis.aiws.engine.v1.ListEventsResponse> getListEventsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListEventsRequest, dev.praxis.aiws.engine.v1.ListEventsResponse> getListEventsMethod;
    if ((getListEventsMethod = EventServiceGrpc.getListEventsMethod) == null) {
      synchronized (EventServiceGrpc.class) {
        if ((getListEventsMethod = EventServiceGrpc.getListEventsMethod) == null) {
          EventServiceGrpc.getListEventsMethod = getListEventsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListEventsRequest, dev.praxis.aiws.engine.v1.ListEventsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListEvents"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListEventsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListEventsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EventServiceMethodDescriptorSupplier("ListEvents"))
              .build();
        }
      }
    }
    return getListEventsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StreamEventsRequest,
      dev.praxis.aiws.engine.v1.StreamEventsResponse> getStreamEventsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StreamEvents",
      requestType = dev.praxis.aiws.engine.v1.StreamEventsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.StreamEventsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StreamEventsRequest,
      dev.praxis.aiws.engine.v1.StreamEventsResponse> getStreamEventsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StreamEventsRequest, dev.praxis.aiws.engine.v1.StreamEventsResponse> getStreamEventsMethod;
    if ((getStreamEventsMethod = EventServiceGrpc.getStreamEventsMethod) == null) {
      synchronized (EventServiceGrpc.class) {
        if ((getStreamEventsMethod = EventServiceGrpc.getStreamEventsMethod) == null) {
          EventServiceGrpc.getStreamEventsMethod = getStreamEventsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.StreamEventsRequest, dev.praxis.aiws.engine.v1.StreamEventsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StreamEvents"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.StreamEventsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.StreamEventsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EventServiceMethodDescriptorSupplier("StreamEvents"))
              .build();
        }
      }
    }
    return getStreamEventsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AckEventsRequest,
      dev.praxis.aiws.engine.v1.AckEventsResponse> getAckEventsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AckEvents",
      requestType = dev.praxis.aiws.engine.v1.AckEventsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.AckEventsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AckEventsRequest,
      dev.praxis.aiws.engine.v1.AckEventsResponse> getAckEventsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AckEventsRequest, dev.praxis.aiws.engine.v1.AckEventsResponse> getAckEventsMethod;
    if ((getAckEventsMethod = EventServiceGrpc.getAckEventsMethod) == null) {
      synchronized (EventServiceGrpc.class) {
        if ((getAckEventsMethod = EventServiceGrpc.getAckEventsMethod) == null) {
          EventServiceGrpc.getAckEventsMethod = getAckEventsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.AckEventsRequest, dev.praxis.aiws.engine.v1.AckEventsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AckEvents"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.AckEventsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.AckEventsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EventServiceMethodDescriptorSupplier("AckEvents"))
              .build();
        }
      }
    }
    return getAckEventsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static EventServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EventServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EventServiceStub>() {
        @java.lang.Override
        public EventServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EventServiceStub(channel, callOptions);
        }
      };
    return EventServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static EventServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EventServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EventServiceBlockingV2Stub>() {
        @java.lang.Override
        public EventServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EventServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return EventServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static EventServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EventServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EventServiceBlockingStub>() {
        @java.lang.Override
        public EventServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EventServiceBlockingStub(channel, callOptions);
        }
      };
    return EventServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static EventServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EventServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EventServiceFutureStub>() {
        @java.lang.Override
        public EventServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EventServiceFutureStub(channel, callOptions);
        }
      };
    return EventServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * EventService delivers the durable, ordered log of run events at least once. A
   * consumer reads from a cursor, and a named subscriber records its position with
   * AckEvents so that it resumes where it acknowledged.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * ListEvents returns one page of events after a cursor.
     * </pre>
     */
    default void listEvents(dev.praxis.aiws.engine.v1.ListEventsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListEventsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListEventsMethod(), responseObserver);
    }

    /**
     * <pre>
     * StreamEvents streams events after a cursor, then new events as they are written,
     * until the caller cancels.
     * </pre>
     */
    default void streamEvents(dev.praxis.aiws.engine.v1.StreamEventsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StreamEventsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStreamEventsMethod(), responseObserver);
    }

    /**
     * <pre>
     * AckEvents records that a subscriber has processed every event up to a cursor.
     * The position never moves backwards.
     * </pre>
     */
    default void ackEvents(dev.praxis.aiws.engine.v1.AckEventsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AckEventsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAckEventsMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service EventService.
   * <pre>
   * EventService delivers the durable, ordered log of run events at least once. A
   * consumer reads from a cursor, and a named subscriber records its position with
   * AckEvents so that it resumes where it acknowledged.
   * </pre>
   */
  public static abstract class EventServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return EventServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service EventService.
   * <pre>
   * EventService delivers the durable, ordered log of run events at least once. A
   * consumer reads from a cursor, and a named subscriber records its position with
   * AckEvents so that it resumes where it acknowledged.
   * </pre>
   */
  public static final class EventServiceStub
      extends io.grpc.stub.AbstractAsyncStub<EventServiceStub> {
    private EventServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EventServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EventServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListEvents returns one page of events after a cursor.
     * </pre>
     */
    public void listEvents(dev.praxis.aiws.engine.v1.ListEventsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListEventsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListEventsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * StreamEvents streams events after a cursor, then new events as they are written,
     * until the caller cancels.
     * </pre>
     */
    public void streamEvents(dev.praxis.aiws.engine.v1.StreamEventsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StreamEventsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getStreamEventsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * AckEvents records that a subscriber has processed every event up to a cursor.
     * The position never moves backwards.
     * </pre>
     */
    public void ackEvents(dev.praxis.aiws.engine.v1.AckEventsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AckEventsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAckEventsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service EventService.
   * <pre>
   * EventService delivers the durable, ordered log of run events at least once. A
   * consumer reads from a cursor, and a named subscriber records its position with
   * AckEvents so that it resumes where it acknowledged.
   * </pre>
   */
  public static final class EventServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<EventServiceBlockingV2Stub> {
    private EventServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EventServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EventServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * ListEvents returns one page of events after a cursor.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListEventsResponse listEvents(dev.praxis.aiws.engine.v1.ListEventsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListEventsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * StreamEvents streams events after a cursor, then new events as they are written,
     * until the caller cancels.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, dev.praxis.aiws.engine.v1.StreamEventsResponse>
        streamEvents(dev.praxis.aiws.engine.v1.StreamEventsRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getStreamEventsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AckEvents records that a subscriber has processed every event up to a cursor.
     * The position never moves backwards.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.AckEventsResponse ackEvents(dev.praxis.aiws.engine.v1.AckEventsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getAckEventsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service EventService.
   * <pre>
   * EventService delivers the durable, ordered log of run events at least once. A
   * consumer reads from a cursor, and a named subscriber records its position with
   * AckEvents so that it resumes where it acknowledged.
   * </pre>
   */
  public static final class EventServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<EventServiceBlockingStub> {
    private EventServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EventServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EventServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListEvents returns one page of events after a cursor.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListEventsResponse listEvents(dev.praxis.aiws.engine.v1.ListEventsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListEventsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * StreamEvents streams events after a cursor, then new events as they are written,
     * until the caller cancels.
     * </pre>
     */
    public java.util.Iterator<dev.praxis.aiws.engine.v1.StreamEventsResponse> streamEvents(
        dev.praxis.aiws.engine.v1.StreamEventsRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getStreamEventsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AckEvents records that a subscriber has processed every event up to a cursor.
     * The position never moves backwards.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.AckEventsResponse ackEvents(dev.praxis.aiws.engine.v1.AckEventsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAckEventsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service EventService.
   * <pre>
   * EventService delivers the durable, ordered log of run events at least once. A
   * consumer reads from a cursor, and a named subscriber records its position with
   * AckEvents so that it resumes where it acknowledged.
   * </pre>
   */
  public static final class EventServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<EventServiceFutureStub> {
    private EventServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EventServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EventServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListEvents returns one page of events after a cursor.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListEventsResponse> listEvents(
        dev.praxis.aiws.engine.v1.ListEventsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListEventsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * AckEvents records that a subscriber has processed every event up to a cursor.
     * The position never moves backwards.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.AckEventsResponse> ackEvents(
        dev.praxis.aiws.engine.v1.AckEventsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAckEventsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_EVENTS = 0;
  private static final int METHODID_STREAM_EVENTS = 1;
  private static final int METHODID_ACK_EVENTS = 2;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AsyncService serviceImpl;
    private final int methodId;

    MethodHandlers(AsyncService serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_LIST_EVENTS:
          serviceImpl.listEvents((dev.praxis.aiws.engine.v1.ListEventsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListEventsResponse>) responseObserver);
          break;
        case METHODID_STREAM_EVENTS:
          serviceImpl.streamEvents((dev.praxis.aiws.engine.v1.StreamEventsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StreamEventsResponse>) responseObserver);
          break;
        case METHODID_ACK_EVENTS:
          serviceImpl.ackEvents((dev.praxis.aiws.engine.v1.AckEventsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AckEventsResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getListEventsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListEventsRequest,
              dev.praxis.aiws.engine.v1.ListEventsResponse>(
                service, METHODID_LIST_EVENTS)))
        .addMethod(
          getStreamEventsMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.StreamEventsRequest,
              dev.praxis.aiws.engine.v1.StreamEventsResponse>(
                service, METHODID_STREAM_EVENTS)))
        .addMethod(
          getAckEventsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.AckEventsRequest,
              dev.praxis.aiws.engine.v1.AckEventsResponse>(
                service, METHODID_ACK_EVENTS)))
        .build();
  }

  private static abstract class EventServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    EventServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.EventOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("EventService");
    }
  }

  private static final class EventServiceFileDescriptorSupplier
      extends EventServiceBaseDescriptorSupplier {
    EventServiceFileDescriptorSupplier() {}
  }

  private static final class EventServiceMethodDescriptorSupplier
      extends EventServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    EventServiceMethodDescriptorSupplier(java.lang.String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (EventServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new EventServiceFileDescriptorSupplier())
              .addMethod(getListEventsMethod())
              .addMethod(getStreamEventsMethod())
              .addMethod(getAckEventsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
