package dev.praxis.aiws.engine.testing.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * TestClockService sets the engine's clock. It exists only when the server is started
 * with `--test-clock`, so that tests and conformance vectors are deterministic. Like
 * every RPC but health and reflection, it needs a credential (any principal).
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class TestClockServiceGrpc {

  private TestClockServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.testing.v1.TestClockService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.testing.v1.SetTimeRequest,
      dev.praxis.aiws.engine.testing.v1.SetTimeResponse> getSetTimeMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SetTime",
      requestType = dev.praxis.aiws.engine.testing.v1.SetTimeRequest.class,
      responseType = dev.praxis.aiws.engine.testing.v1.SetTimeResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.testing.v1.SetTimeRequest,
      dev.praxis.aiws.engine.testing.v1.SetTimeResponse> getSetTimeMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.testing.v1.SetTimeRequest, dev.praxis.aiws.engine.testing.v1.SetTimeResponse> getSetTimeMethod;
    if ((getSetTimeMethod = TestClockServiceGrpc.getSetTimeMethod) == null) {
      synchronized (TestClockServiceGrpc.class) {
        if ((getSetTimeMethod = TestClockServiceGrpc.getSetTimeMethod) == null) {
          TestClockServiceGrpc.getSetTimeMethod = getSetTimeMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.testing.v1.SetTimeRequest, dev.praxis.aiws.engine.testing.v1.SetTimeResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SetTime"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.testing.v1.SetTimeRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.testing.v1.SetTimeResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TestClockServiceMethodDescriptorSupplier("SetTime"))
              .build();
        }
      }
    }
    return getSetTimeMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.testing.v1.AdvanceRequest,
      dev.praxis.aiws.engine.testing.v1.AdvanceResponse> getAdvanceMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Advance",
      requestType = dev.praxis.aiws.engine.testing.v1.AdvanceRequest.class,
      responseType = dev.praxis.aiws.engine.testing.v1.AdvanceResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.testing.v1.AdvanceRequest,
      dev.praxis.aiws.engine.testing.v1.AdvanceResponse> getAdvanceMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.testing.v1.AdvanceRequest, dev.praxis.aiws.engine.testing.v1.AdvanceResponse> getAdvanceMethod;
    if ((getAdvanceMethod = TestClockServiceGrpc.getAdvanceMethod) == null) {
      synchronized (TestClockServiceGrpc.class) {
        if ((getAdvanceMethod = TestClockServiceGrpc.getAdvanceMethod) == null) {
          TestClockServiceGrpc.getAdvanceMethod = getAdvanceMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.testing.v1.AdvanceRequest, dev.praxis.aiws.engine.testing.v1.AdvanceResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Advance"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.testing.v1.AdvanceRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.testing.v1.AdvanceResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TestClockServiceMethodDescriptorSupplier("Advance"))
              .build();
        }
      }
    }
    return getAdvanceMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static TestClockServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TestClockServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TestClockServiceStub>() {
        @java.lang.Override
        public TestClockServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TestClockServiceStub(channel, callOptions);
        }
      };
    return TestClockServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static TestClockServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TestClockServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TestClockServiceBlockingV2Stub>() {
        @java.lang.Override
        public TestClockServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TestClockServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return TestClockServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static TestClockServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TestClockServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TestClockServiceBlockingStub>() {
        @java.lang.Override
        public TestClockServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TestClockServiceBlockingStub(channel, callOptions);
        }
      };
    return TestClockServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static TestClockServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TestClockServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TestClockServiceFutureStub>() {
        @java.lang.Override
        public TestClockServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TestClockServiceFutureStub(channel, callOptions);
        }
      };
    return TestClockServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * TestClockService sets the engine's clock. It exists only when the server is started
   * with `--test-clock`, so that tests and conformance vectors are deterministic. Like
   * every RPC but health and reflection, it needs a credential (any principal).
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * SetTime sets the clock to an absolute time (it may step backwards, which tests the
     * clock-uncertainty hold).
     * </pre>
     */
    default void setTime(dev.praxis.aiws.engine.testing.v1.SetTimeRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.testing.v1.SetTimeResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSetTimeMethod(), responseObserver);
    }

    /**
     * <pre>
     * Advance moves the clock forward.
     * </pre>
     */
    default void advance(dev.praxis.aiws.engine.testing.v1.AdvanceRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.testing.v1.AdvanceResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAdvanceMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service TestClockService.
   * <pre>
   * TestClockService sets the engine's clock. It exists only when the server is started
   * with `--test-clock`, so that tests and conformance vectors are deterministic. Like
   * every RPC but health and reflection, it needs a credential (any principal).
   * </pre>
   */
  public static abstract class TestClockServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return TestClockServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service TestClockService.
   * <pre>
   * TestClockService sets the engine's clock. It exists only when the server is started
   * with `--test-clock`, so that tests and conformance vectors are deterministic. Like
   * every RPC but health and reflection, it needs a credential (any principal).
   * </pre>
   */
  public static final class TestClockServiceStub
      extends io.grpc.stub.AbstractAsyncStub<TestClockServiceStub> {
    private TestClockServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TestClockServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TestClockServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * SetTime sets the clock to an absolute time (it may step backwards, which tests the
     * clock-uncertainty hold).
     * </pre>
     */
    public void setTime(dev.praxis.aiws.engine.testing.v1.SetTimeRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.testing.v1.SetTimeResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSetTimeMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Advance moves the clock forward.
     * </pre>
     */
    public void advance(dev.praxis.aiws.engine.testing.v1.AdvanceRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.testing.v1.AdvanceResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAdvanceMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service TestClockService.
   * <pre>
   * TestClockService sets the engine's clock. It exists only when the server is started
   * with `--test-clock`, so that tests and conformance vectors are deterministic. Like
   * every RPC but health and reflection, it needs a credential (any principal).
   * </pre>
   */
  public static final class TestClockServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<TestClockServiceBlockingV2Stub> {
    private TestClockServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TestClockServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TestClockServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * SetTime sets the clock to an absolute time (it may step backwards, which tests the
     * clock-uncertainty hold).
     * </pre>
     */
    public dev.praxis.aiws.engine.testing.v1.SetTimeResponse setTime(dev.praxis.aiws.engine.testing.v1.SetTimeRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSetTimeMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Advance moves the clock forward.
     * </pre>
     */
    public dev.praxis.aiws.engine.testing.v1.AdvanceResponse advance(dev.praxis.aiws.engine.testing.v1.AdvanceRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getAdvanceMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service TestClockService.
   * <pre>
   * TestClockService sets the engine's clock. It exists only when the server is started
   * with `--test-clock`, so that tests and conformance vectors are deterministic. Like
   * every RPC but health and reflection, it needs a credential (any principal).
   * </pre>
   */
  public static final class TestClockServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<TestClockServiceBlockingStub> {
    private TestClockServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TestClockServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TestClockServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * SetTime sets the clock to an absolute time (it may step backwards, which tests the
     * clock-uncertainty hold).
     * </pre>
     */
    public dev.praxis.aiws.engine.testing.v1.SetTimeResponse setTime(dev.praxis.aiws.engine.testing.v1.SetTimeRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSetTimeMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Advance moves the clock forward.
     * </pre>
     */
    public dev.praxis.aiws.engine.testing.v1.AdvanceResponse advance(dev.praxis.aiws.engine.testing.v1.AdvanceRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAdvanceMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service TestClockService.
   * <pre>
   * TestClockService sets the engine's clock. It exists only when the server is started
   * with `--test-clock`, so that tests and conformance vectors are deterministic. Like
   * every RPC but health and reflection, it needs a credential (any principal).
   * </pre>
   */
  public static final class TestClockServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<TestClockServiceFutureStub> {
    private TestClockServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TestClockServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TestClockServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * SetTime sets the clock to an absolute time (it may step backwards, which tests the
     * clock-uncertainty hold).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.testing.v1.SetTimeResponse> setTime(
        dev.praxis.aiws.engine.testing.v1.SetTimeRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSetTimeMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Advance moves the clock forward.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.testing.v1.AdvanceResponse> advance(
        dev.praxis.aiws.engine.testing.v1.AdvanceRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAdvanceMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_SET_TIME = 0;
  private static final int METHODID_ADVANCE = 1;

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
        case METHODID_SET_TIME:
          serviceImpl.setTime((dev.praxis.aiws.engine.testing.v1.SetTimeRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.testing.v1.SetTimeResponse>) responseObserver);
          break;
        case METHODID_ADVANCE:
          serviceImpl.advance((dev.praxis.aiws.engine.testing.v1.AdvanceRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.testing.v1.AdvanceResponse>) responseObserver);
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
          getSetTimeMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.testing.v1.SetTimeRequest,
              dev.praxis.aiws.engine.testing.v1.SetTimeResponse>(
                service, METHODID_SET_TIME)))
        .addMethod(
          getAdvanceMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.testing.v1.AdvanceRequest,
              dev.praxis.aiws.engine.testing.v1.AdvanceResponse>(
                service, METHODID_ADVANCE)))
        .build();
  }

  private static abstract class TestClockServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    TestClockServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.testing.v1.Clock.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("TestClockService");
    }
  }

  private static final class TestClockServiceFileDescriptorSupplier
      extends TestClockServiceBaseDescriptorSupplier {
    TestClockServiceFileDescriptorSupplier() {}
  }

  private static final class TestClockServiceMethodDescriptorSupplier
      extends TestClockServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    TestClockServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (TestClockServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new TestClockServiceFileDescriptorSupplier())
              .addMethod(getSetTimeMethod())
              .addMethod(getAdvanceMethod())
              .build();
        }
      }
    }
    return result;
  }
}
