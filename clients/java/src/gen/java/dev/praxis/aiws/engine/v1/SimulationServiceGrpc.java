package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * SimulationService answers "what would this definition do with this input and these
 * outcomes?" from the server's pure core, in any language: the same reducer that runs
 * real runs, driven by a script instead of workers and humans, on a given clock. It
 * writes nothing and needs only `run.read` on the work order it names.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class SimulationServiceGrpc {

  private SimulationServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.SimulationService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SimulateRunRequest,
      dev.praxis.aiws.engine.v1.SimulateRunResponse> getSimulateRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SimulateRun",
      requestType = dev.praxis.aiws.engine.v1.SimulateRunRequest.class,
      responseType = dev.praxis.aiws.engine.v1.SimulateRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SimulateRunRequest,
      dev.praxis.aiws.engine.v1.SimulateRunResponse> getSimulateRunMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SimulateRunRequest, dev.praxis.aiws.engine.v1.SimulateRunResponse> getSimulateRunMethod;
    if ((getSimulateRunMethod = SimulationServiceGrpc.getSimulateRunMethod) == null) {
      synchronized (SimulationServiceGrpc.class) {
        if ((getSimulateRunMethod = SimulationServiceGrpc.getSimulateRunMethod) == null) {
          SimulationServiceGrpc.getSimulateRunMethod = getSimulateRunMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.SimulateRunRequest, dev.praxis.aiws.engine.v1.SimulateRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SimulateRun"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.SimulateRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.SimulateRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SimulationServiceMethodDescriptorSupplier("SimulateRun"))
              .build();
        }
      }
    }
    return getSimulateRunMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static SimulationServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SimulationServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SimulationServiceStub>() {
        @java.lang.Override
        public SimulationServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SimulationServiceStub(channel, callOptions);
        }
      };
    return SimulationServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static SimulationServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SimulationServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SimulationServiceBlockingV2Stub>() {
        @java.lang.Override
        public SimulationServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SimulationServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return SimulationServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static SimulationServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SimulationServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SimulationServiceBlockingStub>() {
        @java.lang.Override
        public SimulationServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SimulationServiceBlockingStub(channel, callOptions);
        }
      };
    return SimulationServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static SimulationServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SimulationServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SimulationServiceFutureStub>() {
        @java.lang.Override
        public SimulationServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SimulationServiceFutureStub(channel, callOptions);
        }
      };
    return SimulationServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * SimulationService answers "what would this definition do with this input and these
   * outcomes?" from the server's pure core, in any language: the same reducer that runs
   * real runs, driven by a script instead of workers and humans, on a given clock. It
   * writes nothing and needs only `run.read` on the work order it names.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * SimulateRun plays a run of a definition (inline or a ref's revision) forward from
     * `start_at_ms`: each ready node, in definition order (fan-out items in item order),
     * is leased to one simulated worker and settled with the next scripted outcome for it;
     * open waits are answered and blocked nodes reconciled where the script says so; when
     * nothing else can happen, time runs to the next timer (a retry's backoff, a wait's
     * expiry, a lease, a deadline). Attempts run one after another, each taking its
     * outcome's `duration_ms`. The same request always gives the same answer.
     * </pre>
     */
    default void simulateRun(dev.praxis.aiws.engine.v1.SimulateRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SimulateRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSimulateRunMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service SimulationService.
   * <pre>
   * SimulationService answers "what would this definition do with this input and these
   * outcomes?" from the server's pure core, in any language: the same reducer that runs
   * real runs, driven by a script instead of workers and humans, on a given clock. It
   * writes nothing and needs only `run.read` on the work order it names.
   * </pre>
   */
  public static abstract class SimulationServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return SimulationServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service SimulationService.
   * <pre>
   * SimulationService answers "what would this definition do with this input and these
   * outcomes?" from the server's pure core, in any language: the same reducer that runs
   * real runs, driven by a script instead of workers and humans, on a given clock. It
   * writes nothing and needs only `run.read` on the work order it names.
   * </pre>
   */
  public static final class SimulationServiceStub
      extends io.grpc.stub.AbstractAsyncStub<SimulationServiceStub> {
    private SimulationServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SimulationServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SimulationServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * SimulateRun plays a run of a definition (inline or a ref's revision) forward from
     * `start_at_ms`: each ready node, in definition order (fan-out items in item order),
     * is leased to one simulated worker and settled with the next scripted outcome for it;
     * open waits are answered and blocked nodes reconciled where the script says so; when
     * nothing else can happen, time runs to the next timer (a retry's backoff, a wait's
     * expiry, a lease, a deadline). Attempts run one after another, each taking its
     * outcome's `duration_ms`. The same request always gives the same answer.
     * </pre>
     */
    public void simulateRun(dev.praxis.aiws.engine.v1.SimulateRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SimulateRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSimulateRunMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service SimulationService.
   * <pre>
   * SimulationService answers "what would this definition do with this input and these
   * outcomes?" from the server's pure core, in any language: the same reducer that runs
   * real runs, driven by a script instead of workers and humans, on a given clock. It
   * writes nothing and needs only `run.read` on the work order it names.
   * </pre>
   */
  public static final class SimulationServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<SimulationServiceBlockingV2Stub> {
    private SimulationServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SimulationServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SimulationServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * SimulateRun plays a run of a definition (inline or a ref's revision) forward from
     * `start_at_ms`: each ready node, in definition order (fan-out items in item order),
     * is leased to one simulated worker and settled with the next scripted outcome for it;
     * open waits are answered and blocked nodes reconciled where the script says so; when
     * nothing else can happen, time runs to the next timer (a retry's backoff, a wait's
     * expiry, a lease, a deadline). Attempts run one after another, each taking its
     * outcome's `duration_ms`. The same request always gives the same answer.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.SimulateRunResponse simulateRun(dev.praxis.aiws.engine.v1.SimulateRunRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSimulateRunMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service SimulationService.
   * <pre>
   * SimulationService answers "what would this definition do with this input and these
   * outcomes?" from the server's pure core, in any language: the same reducer that runs
   * real runs, driven by a script instead of workers and humans, on a given clock. It
   * writes nothing and needs only `run.read` on the work order it names.
   * </pre>
   */
  public static final class SimulationServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<SimulationServiceBlockingStub> {
    private SimulationServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SimulationServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SimulationServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * SimulateRun plays a run of a definition (inline or a ref's revision) forward from
     * `start_at_ms`: each ready node, in definition order (fan-out items in item order),
     * is leased to one simulated worker and settled with the next scripted outcome for it;
     * open waits are answered and blocked nodes reconciled where the script says so; when
     * nothing else can happen, time runs to the next timer (a retry's backoff, a wait's
     * expiry, a lease, a deadline). Attempts run one after another, each taking its
     * outcome's `duration_ms`. The same request always gives the same answer.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.SimulateRunResponse simulateRun(dev.praxis.aiws.engine.v1.SimulateRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSimulateRunMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service SimulationService.
   * <pre>
   * SimulationService answers "what would this definition do with this input and these
   * outcomes?" from the server's pure core, in any language: the same reducer that runs
   * real runs, driven by a script instead of workers and humans, on a given clock. It
   * writes nothing and needs only `run.read` on the work order it names.
   * </pre>
   */
  public static final class SimulationServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<SimulationServiceFutureStub> {
    private SimulationServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SimulationServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SimulationServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * SimulateRun plays a run of a definition (inline or a ref's revision) forward from
     * `start_at_ms`: each ready node, in definition order (fan-out items in item order),
     * is leased to one simulated worker and settled with the next scripted outcome for it;
     * open waits are answered and blocked nodes reconciled where the script says so; when
     * nothing else can happen, time runs to the next timer (a retry's backoff, a wait's
     * expiry, a lease, a deadline). Attempts run one after another, each taking its
     * outcome's `duration_ms`. The same request always gives the same answer.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.SimulateRunResponse> simulateRun(
        dev.praxis.aiws.engine.v1.SimulateRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSimulateRunMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_SIMULATE_RUN = 0;

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
        case METHODID_SIMULATE_RUN:
          serviceImpl.simulateRun((dev.praxis.aiws.engine.v1.SimulateRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SimulateRunResponse>) responseObserver);
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
          getSimulateRunMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.SimulateRunRequest,
              dev.praxis.aiws.engine.v1.SimulateRunResponse>(
                service, METHODID_SIMULATE_RUN)))
        .build();
  }

  private static abstract class SimulationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    SimulationServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.Simulation.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("SimulationService");
    }
  }

  private static final class SimulationServiceFileDescriptorSupplier
      extends SimulationServiceBaseDescriptorSupplier {
    SimulationServiceFileDescriptorSupplier() {}
  }

  private static final class SimulationServiceMethodDescriptorSupplier
      extends SimulationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    SimulationServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (SimulationServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new SimulationServiceFileDescriptorSupplier())
              .addMethod(getSimulateRunMethod())
              .build();
        }
      }
    }
    return result;
  }
}
