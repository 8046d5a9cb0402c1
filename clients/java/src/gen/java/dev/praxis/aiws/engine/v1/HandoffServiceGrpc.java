package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * HandoffService transfers a finished node's outputs and the responsibility for them
 * from one principal to another through an explicit record that the receiver
 * acknowledges. A handoff's delivery id is assigned by the engine and is distinct from
 * operation and attempt ids.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class HandoffServiceGrpc {

  private HandoffServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.HandoffService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateHandoffRequest,
      dev.praxis.aiws.engine.v1.CreateHandoffResponse> getCreateHandoffMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateHandoff",
      requestType = dev.praxis.aiws.engine.v1.CreateHandoffRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CreateHandoffResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateHandoffRequest,
      dev.praxis.aiws.engine.v1.CreateHandoffResponse> getCreateHandoffMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateHandoffRequest, dev.praxis.aiws.engine.v1.CreateHandoffResponse> getCreateHandoffMethod;
    if ((getCreateHandoffMethod = HandoffServiceGrpc.getCreateHandoffMethod) == null) {
      synchronized (HandoffServiceGrpc.class) {
        if ((getCreateHandoffMethod = HandoffServiceGrpc.getCreateHandoffMethod) == null) {
          HandoffServiceGrpc.getCreateHandoffMethod = getCreateHandoffMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CreateHandoffRequest, dev.praxis.aiws.engine.v1.CreateHandoffResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateHandoff"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateHandoffRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateHandoffResponse.getDefaultInstance()))
              .setSchemaDescriptor(new HandoffServiceMethodDescriptorSupplier("CreateHandoff"))
              .build();
        }
      }
    }
    return getCreateHandoffMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest,
      dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse> getAcknowledgeHandoffMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AcknowledgeHandoff",
      requestType = dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest.class,
      responseType = dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest,
      dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse> getAcknowledgeHandoffMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest, dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse> getAcknowledgeHandoffMethod;
    if ((getAcknowledgeHandoffMethod = HandoffServiceGrpc.getAcknowledgeHandoffMethod) == null) {
      synchronized (HandoffServiceGrpc.class) {
        if ((getAcknowledgeHandoffMethod = HandoffServiceGrpc.getAcknowledgeHandoffMethod) == null) {
          HandoffServiceGrpc.getAcknowledgeHandoffMethod = getAcknowledgeHandoffMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest, dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AcknowledgeHandoff"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse.getDefaultInstance()))
              .setSchemaDescriptor(new HandoffServiceMethodDescriptorSupplier("AcknowledgeHandoff"))
              .build();
        }
      }
    }
    return getAcknowledgeHandoffMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetHandoffRequest,
      dev.praxis.aiws.engine.v1.GetHandoffResponse> getGetHandoffMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetHandoff",
      requestType = dev.praxis.aiws.engine.v1.GetHandoffRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetHandoffResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetHandoffRequest,
      dev.praxis.aiws.engine.v1.GetHandoffResponse> getGetHandoffMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetHandoffRequest, dev.praxis.aiws.engine.v1.GetHandoffResponse> getGetHandoffMethod;
    if ((getGetHandoffMethod = HandoffServiceGrpc.getGetHandoffMethod) == null) {
      synchronized (HandoffServiceGrpc.class) {
        if ((getGetHandoffMethod = HandoffServiceGrpc.getGetHandoffMethod) == null) {
          HandoffServiceGrpc.getGetHandoffMethod = getGetHandoffMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetHandoffRequest, dev.praxis.aiws.engine.v1.GetHandoffResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetHandoff"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetHandoffRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetHandoffResponse.getDefaultInstance()))
              .setSchemaDescriptor(new HandoffServiceMethodDescriptorSupplier("GetHandoff"))
              .build();
        }
      }
    }
    return getGetHandoffMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHandoffsRequest,
      dev.praxis.aiws.engine.v1.ListHandoffsResponse> getListHandoffsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListHandoffs",
      requestType = dev.praxis.aiws.engine.v1.ListHandoffsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListHandoffsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHandoffsRequest,
      dev.praxis.aiws.engine.v1.ListHandoffsResponse> getListHandoffsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHandoffsRequest, dev.praxis.aiws.engine.v1.ListHandoffsResponse> getListHandoffsMethod;
    if ((getListHandoffsMethod = HandoffServiceGrpc.getListHandoffsMethod) == null) {
      synchronized (HandoffServiceGrpc.class) {
        if ((getListHandoffsMethod = HandoffServiceGrpc.getListHandoffsMethod) == null) {
          HandoffServiceGrpc.getListHandoffsMethod = getListHandoffsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListHandoffsRequest, dev.praxis.aiws.engine.v1.ListHandoffsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListHandoffs"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListHandoffsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListHandoffsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new HandoffServiceMethodDescriptorSupplier("ListHandoffs"))
              .build();
        }
      }
    }
    return getListHandoffsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static HandoffServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<HandoffServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<HandoffServiceStub>() {
        @java.lang.Override
        public HandoffServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new HandoffServiceStub(channel, callOptions);
        }
      };
    return HandoffServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static HandoffServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<HandoffServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<HandoffServiceBlockingV2Stub>() {
        @java.lang.Override
        public HandoffServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new HandoffServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return HandoffServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static HandoffServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<HandoffServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<HandoffServiceBlockingStub>() {
        @java.lang.Override
        public HandoffServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new HandoffServiceBlockingStub(channel, callOptions);
        }
      };
    return HandoffServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static HandoffServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<HandoffServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<HandoffServiceFutureStub>() {
        @java.lang.Override
        public HandoffServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new HandoffServiceFutureStub(channel, callOptions);
        }
      };
    return HandoffServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * HandoffService transfers a finished node's outputs and the responsibility for them
   * from one principal to another through an explicit record that the receiver
   * acknowledges. A handoff's delivery id is assigned by the engine and is distinct from
   * operation and attempt ids.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * CreateHandoff offers a finished node's outputs to another principal. A repeated
     * request_id with the same request returns the original handoff with
     * `replayed = true`.
     * </pre>
     */
    default void createHandoff(dev.praxis.aiws.engine.v1.CreateHandoffRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateHandoffResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateHandoffMethod(), responseObserver);
    }

    /**
     * <pre>
     * AcknowledgeHandoff is the receiver's acceptance of responsibility. Only the
     * receiver may acknowledge, and only once (HANDOFF_ALREADY_ACKNOWLEDGED).
     * </pre>
     */
    default void acknowledgeHandoff(dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAcknowledgeHandoffMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetHandoff returns one handoff.
     * </pre>
     */
    default void getHandoff(dev.praxis.aiws.engine.v1.GetHandoffRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetHandoffResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetHandoffMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListHandoffs pages through the handoffs addressed to the caller (whose
     * `to_principal_id` is the caller), oldest first, so that a receiver (an agent over
     * MCP, a worker) finds what it is asked to acknowledge without reading the inbox. A
     * handoff is listed only when the caller may read its run (`run.read` on the run's
     * work order, as GetHandoff): the others are left out, so a page may be short while
     * `next_page_token` is set.
     * </pre>
     */
    default void listHandoffs(dev.praxis.aiws.engine.v1.ListHandoffsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHandoffsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListHandoffsMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service HandoffService.
   * <pre>
   * HandoffService transfers a finished node's outputs and the responsibility for them
   * from one principal to another through an explicit record that the receiver
   * acknowledges. A handoff's delivery id is assigned by the engine and is distinct from
   * operation and attempt ids.
   * </pre>
   */
  public static abstract class HandoffServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return HandoffServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service HandoffService.
   * <pre>
   * HandoffService transfers a finished node's outputs and the responsibility for them
   * from one principal to another through an explicit record that the receiver
   * acknowledges. A handoff's delivery id is assigned by the engine and is distinct from
   * operation and attempt ids.
   * </pre>
   */
  public static final class HandoffServiceStub
      extends io.grpc.stub.AbstractAsyncStub<HandoffServiceStub> {
    private HandoffServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected HandoffServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new HandoffServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateHandoff offers a finished node's outputs to another principal. A repeated
     * request_id with the same request returns the original handoff with
     * `replayed = true`.
     * </pre>
     */
    public void createHandoff(dev.praxis.aiws.engine.v1.CreateHandoffRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateHandoffResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateHandoffMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * AcknowledgeHandoff is the receiver's acceptance of responsibility. Only the
     * receiver may acknowledge, and only once (HANDOFF_ALREADY_ACKNOWLEDGED).
     * </pre>
     */
    public void acknowledgeHandoff(dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAcknowledgeHandoffMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetHandoff returns one handoff.
     * </pre>
     */
    public void getHandoff(dev.praxis.aiws.engine.v1.GetHandoffRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetHandoffResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetHandoffMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListHandoffs pages through the handoffs addressed to the caller (whose
     * `to_principal_id` is the caller), oldest first, so that a receiver (an agent over
     * MCP, a worker) finds what it is asked to acknowledge without reading the inbox. A
     * handoff is listed only when the caller may read its run (`run.read` on the run's
     * work order, as GetHandoff): the others are left out, so a page may be short while
     * `next_page_token` is set.
     * </pre>
     */
    public void listHandoffs(dev.praxis.aiws.engine.v1.ListHandoffsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHandoffsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListHandoffsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service HandoffService.
   * <pre>
   * HandoffService transfers a finished node's outputs and the responsibility for them
   * from one principal to another through an explicit record that the receiver
   * acknowledges. A handoff's delivery id is assigned by the engine and is distinct from
   * operation and attempt ids.
   * </pre>
   */
  public static final class HandoffServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<HandoffServiceBlockingV2Stub> {
    private HandoffServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected HandoffServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new HandoffServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateHandoff offers a finished node's outputs to another principal. A repeated
     * request_id with the same request returns the original handoff with
     * `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateHandoffResponse createHandoff(dev.praxis.aiws.engine.v1.CreateHandoffRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateHandoffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AcknowledgeHandoff is the receiver's acceptance of responsibility. Only the
     * receiver may acknowledge, and only once (HANDOFF_ALREADY_ACKNOWLEDGED).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse acknowledgeHandoff(dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getAcknowledgeHandoffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetHandoff returns one handoff.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetHandoffResponse getHandoff(dev.praxis.aiws.engine.v1.GetHandoffRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetHandoffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListHandoffs pages through the handoffs addressed to the caller (whose
     * `to_principal_id` is the caller), oldest first, so that a receiver (an agent over
     * MCP, a worker) finds what it is asked to acknowledge without reading the inbox. A
     * handoff is listed only when the caller may read its run (`run.read` on the run's
     * work order, as GetHandoff): the others are left out, so a page may be short while
     * `next_page_token` is set.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListHandoffsResponse listHandoffs(dev.praxis.aiws.engine.v1.ListHandoffsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListHandoffsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service HandoffService.
   * <pre>
   * HandoffService transfers a finished node's outputs and the responsibility for them
   * from one principal to another through an explicit record that the receiver
   * acknowledges. A handoff's delivery id is assigned by the engine and is distinct from
   * operation and attempt ids.
   * </pre>
   */
  public static final class HandoffServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<HandoffServiceBlockingStub> {
    private HandoffServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected HandoffServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new HandoffServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateHandoff offers a finished node's outputs to another principal. A repeated
     * request_id with the same request returns the original handoff with
     * `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateHandoffResponse createHandoff(dev.praxis.aiws.engine.v1.CreateHandoffRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateHandoffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AcknowledgeHandoff is the receiver's acceptance of responsibility. Only the
     * receiver may acknowledge, and only once (HANDOFF_ALREADY_ACKNOWLEDGED).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse acknowledgeHandoff(dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAcknowledgeHandoffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetHandoff returns one handoff.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetHandoffResponse getHandoff(dev.praxis.aiws.engine.v1.GetHandoffRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetHandoffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListHandoffs pages through the handoffs addressed to the caller (whose
     * `to_principal_id` is the caller), oldest first, so that a receiver (an agent over
     * MCP, a worker) finds what it is asked to acknowledge without reading the inbox. A
     * handoff is listed only when the caller may read its run (`run.read` on the run's
     * work order, as GetHandoff): the others are left out, so a page may be short while
     * `next_page_token` is set.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListHandoffsResponse listHandoffs(dev.praxis.aiws.engine.v1.ListHandoffsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListHandoffsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service HandoffService.
   * <pre>
   * HandoffService transfers a finished node's outputs and the responsibility for them
   * from one principal to another through an explicit record that the receiver
   * acknowledges. A handoff's delivery id is assigned by the engine and is distinct from
   * operation and attempt ids.
   * </pre>
   */
  public static final class HandoffServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<HandoffServiceFutureStub> {
    private HandoffServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected HandoffServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new HandoffServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateHandoff offers a finished node's outputs to another principal. A repeated
     * request_id with the same request returns the original handoff with
     * `replayed = true`.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CreateHandoffResponse> createHandoff(
        dev.praxis.aiws.engine.v1.CreateHandoffRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateHandoffMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * AcknowledgeHandoff is the receiver's acceptance of responsibility. Only the
     * receiver may acknowledge, and only once (HANDOFF_ALREADY_ACKNOWLEDGED).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse> acknowledgeHandoff(
        dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAcknowledgeHandoffMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetHandoff returns one handoff.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetHandoffResponse> getHandoff(
        dev.praxis.aiws.engine.v1.GetHandoffRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetHandoffMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListHandoffs pages through the handoffs addressed to the caller (whose
     * `to_principal_id` is the caller), oldest first, so that a receiver (an agent over
     * MCP, a worker) finds what it is asked to acknowledge without reading the inbox. A
     * handoff is listed only when the caller may read its run (`run.read` on the run's
     * work order, as GetHandoff): the others are left out, so a page may be short while
     * `next_page_token` is set.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListHandoffsResponse> listHandoffs(
        dev.praxis.aiws.engine.v1.ListHandoffsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListHandoffsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_HANDOFF = 0;
  private static final int METHODID_ACKNOWLEDGE_HANDOFF = 1;
  private static final int METHODID_GET_HANDOFF = 2;
  private static final int METHODID_LIST_HANDOFFS = 3;

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
        case METHODID_CREATE_HANDOFF:
          serviceImpl.createHandoff((dev.praxis.aiws.engine.v1.CreateHandoffRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateHandoffResponse>) responseObserver);
          break;
        case METHODID_ACKNOWLEDGE_HANDOFF:
          serviceImpl.acknowledgeHandoff((dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse>) responseObserver);
          break;
        case METHODID_GET_HANDOFF:
          serviceImpl.getHandoff((dev.praxis.aiws.engine.v1.GetHandoffRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetHandoffResponse>) responseObserver);
          break;
        case METHODID_LIST_HANDOFFS:
          serviceImpl.listHandoffs((dev.praxis.aiws.engine.v1.ListHandoffsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHandoffsResponse>) responseObserver);
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
          getCreateHandoffMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CreateHandoffRequest,
              dev.praxis.aiws.engine.v1.CreateHandoffResponse>(
                service, METHODID_CREATE_HANDOFF)))
        .addMethod(
          getAcknowledgeHandoffMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.AcknowledgeHandoffRequest,
              dev.praxis.aiws.engine.v1.AcknowledgeHandoffResponse>(
                service, METHODID_ACKNOWLEDGE_HANDOFF)))
        .addMethod(
          getGetHandoffMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetHandoffRequest,
              dev.praxis.aiws.engine.v1.GetHandoffResponse>(
                service, METHODID_GET_HANDOFF)))
        .addMethod(
          getListHandoffsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListHandoffsRequest,
              dev.praxis.aiws.engine.v1.ListHandoffsResponse>(
                service, METHODID_LIST_HANDOFFS)))
        .build();
  }

  private static abstract class HandoffServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    HandoffServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.HandoffOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("HandoffService");
    }
  }

  private static final class HandoffServiceFileDescriptorSupplier
      extends HandoffServiceBaseDescriptorSupplier {
    HandoffServiceFileDescriptorSupplier() {}
  }

  private static final class HandoffServiceMethodDescriptorSupplier
      extends HandoffServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    HandoffServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (HandoffServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new HandoffServiceFileDescriptorSupplier())
              .addMethod(getCreateHandoffMethod())
              .addMethod(getAcknowledgeHandoffMethod())
              .addMethod(getGetHandoffMethod())
              .addMethod(getListHandoffsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
