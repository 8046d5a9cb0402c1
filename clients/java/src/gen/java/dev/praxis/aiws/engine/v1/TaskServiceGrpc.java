package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * TaskService is how workers in any language do the work of nodes. A worker claims
 * attempts for the models it serves, holds each under a lease it extends with
 * heartbeats, and settles it once with a result or a failure and the effect outcome.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class TaskServiceGrpc {

  private TaskServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.TaskService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ClaimTasksRequest,
      dev.praxis.aiws.engine.v1.ClaimTasksResponse> getClaimTasksMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ClaimTasks",
      requestType = dev.praxis.aiws.engine.v1.ClaimTasksRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ClaimTasksResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ClaimTasksRequest,
      dev.praxis.aiws.engine.v1.ClaimTasksResponse> getClaimTasksMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ClaimTasksRequest, dev.praxis.aiws.engine.v1.ClaimTasksResponse> getClaimTasksMethod;
    if ((getClaimTasksMethod = TaskServiceGrpc.getClaimTasksMethod) == null) {
      synchronized (TaskServiceGrpc.class) {
        if ((getClaimTasksMethod = TaskServiceGrpc.getClaimTasksMethod) == null) {
          TaskServiceGrpc.getClaimTasksMethod = getClaimTasksMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ClaimTasksRequest, dev.praxis.aiws.engine.v1.ClaimTasksResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ClaimTasks"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ClaimTasksRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ClaimTasksResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TaskServiceMethodDescriptorSupplier("ClaimTasks"))
              .build();
        }
      }
    }
    return getClaimTasksMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.HeartbeatRequest,
      dev.praxis.aiws.engine.v1.HeartbeatResponse> getHeartbeatMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Heartbeat",
      requestType = dev.praxis.aiws.engine.v1.HeartbeatRequest.class,
      responseType = dev.praxis.aiws.engine.v1.HeartbeatResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.HeartbeatRequest,
      dev.praxis.aiws.engine.v1.HeartbeatResponse> getHeartbeatMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.HeartbeatRequest, dev.praxis.aiws.engine.v1.HeartbeatResponse> getHeartbeatMethod;
    if ((getHeartbeatMethod = TaskServiceGrpc.getHeartbeatMethod) == null) {
      synchronized (TaskServiceGrpc.class) {
        if ((getHeartbeatMethod = TaskServiceGrpc.getHeartbeatMethod) == null) {
          TaskServiceGrpc.getHeartbeatMethod = getHeartbeatMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.HeartbeatRequest, dev.praxis.aiws.engine.v1.HeartbeatResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Heartbeat"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.HeartbeatRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.HeartbeatResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TaskServiceMethodDescriptorSupplier("Heartbeat"))
              .build();
        }
      }
    }
    return getHeartbeatMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CompleteTaskRequest,
      dev.praxis.aiws.engine.v1.CompleteTaskResponse> getCompleteTaskMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CompleteTask",
      requestType = dev.praxis.aiws.engine.v1.CompleteTaskRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CompleteTaskResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CompleteTaskRequest,
      dev.praxis.aiws.engine.v1.CompleteTaskResponse> getCompleteTaskMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CompleteTaskRequest, dev.praxis.aiws.engine.v1.CompleteTaskResponse> getCompleteTaskMethod;
    if ((getCompleteTaskMethod = TaskServiceGrpc.getCompleteTaskMethod) == null) {
      synchronized (TaskServiceGrpc.class) {
        if ((getCompleteTaskMethod = TaskServiceGrpc.getCompleteTaskMethod) == null) {
          TaskServiceGrpc.getCompleteTaskMethod = getCompleteTaskMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CompleteTaskRequest, dev.praxis.aiws.engine.v1.CompleteTaskResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CompleteTask"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CompleteTaskRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CompleteTaskResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TaskServiceMethodDescriptorSupplier("CompleteTask"))
              .build();
        }
      }
    }
    return getCompleteTaskMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.FailTaskRequest,
      dev.praxis.aiws.engine.v1.FailTaskResponse> getFailTaskMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "FailTask",
      requestType = dev.praxis.aiws.engine.v1.FailTaskRequest.class,
      responseType = dev.praxis.aiws.engine.v1.FailTaskResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.FailTaskRequest,
      dev.praxis.aiws.engine.v1.FailTaskResponse> getFailTaskMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.FailTaskRequest, dev.praxis.aiws.engine.v1.FailTaskResponse> getFailTaskMethod;
    if ((getFailTaskMethod = TaskServiceGrpc.getFailTaskMethod) == null) {
      synchronized (TaskServiceGrpc.class) {
        if ((getFailTaskMethod = TaskServiceGrpc.getFailTaskMethod) == null) {
          TaskServiceGrpc.getFailTaskMethod = getFailTaskMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.FailTaskRequest, dev.praxis.aiws.engine.v1.FailTaskResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "FailTask"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.FailTaskRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.FailTaskResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TaskServiceMethodDescriptorSupplier("FailTask"))
              .build();
        }
      }
    }
    return getFailTaskMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SettleTasksRequest,
      dev.praxis.aiws.engine.v1.SettleTasksResponse> getSettleTasksMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SettleTasks",
      requestType = dev.praxis.aiws.engine.v1.SettleTasksRequest.class,
      responseType = dev.praxis.aiws.engine.v1.SettleTasksResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SettleTasksRequest,
      dev.praxis.aiws.engine.v1.SettleTasksResponse> getSettleTasksMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SettleTasksRequest, dev.praxis.aiws.engine.v1.SettleTasksResponse> getSettleTasksMethod;
    if ((getSettleTasksMethod = TaskServiceGrpc.getSettleTasksMethod) == null) {
      synchronized (TaskServiceGrpc.class) {
        if ((getSettleTasksMethod = TaskServiceGrpc.getSettleTasksMethod) == null) {
          TaskServiceGrpc.getSettleTasksMethod = getSettleTasksMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.SettleTasksRequest, dev.praxis.aiws.engine.v1.SettleTasksResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SettleTasks"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.SettleTasksRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.SettleTasksResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TaskServiceMethodDescriptorSupplier("SettleTasks"))
              .build();
        }
      }
    }
    return getSettleTasksMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListModelsRequest,
      dev.praxis.aiws.engine.v1.ListModelsResponse> getListModelsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListModels",
      requestType = dev.praxis.aiws.engine.v1.ListModelsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListModelsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListModelsRequest,
      dev.praxis.aiws.engine.v1.ListModelsResponse> getListModelsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListModelsRequest, dev.praxis.aiws.engine.v1.ListModelsResponse> getListModelsMethod;
    if ((getListModelsMethod = TaskServiceGrpc.getListModelsMethod) == null) {
      synchronized (TaskServiceGrpc.class) {
        if ((getListModelsMethod = TaskServiceGrpc.getListModelsMethod) == null) {
          TaskServiceGrpc.getListModelsMethod = getListModelsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListModelsRequest, dev.praxis.aiws.engine.v1.ListModelsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListModels"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListModelsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListModelsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TaskServiceMethodDescriptorSupplier("ListModels"))
              .build();
        }
      }
    }
    return getListModelsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static TaskServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TaskServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TaskServiceStub>() {
        @java.lang.Override
        public TaskServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TaskServiceStub(channel, callOptions);
        }
      };
    return TaskServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static TaskServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TaskServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TaskServiceBlockingV2Stub>() {
        @java.lang.Override
        public TaskServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TaskServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return TaskServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static TaskServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TaskServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TaskServiceBlockingStub>() {
        @java.lang.Override
        public TaskServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TaskServiceBlockingStub(channel, callOptions);
        }
      };
    return TaskServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static TaskServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TaskServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TaskServiceFutureStub>() {
        @java.lang.Override
        public TaskServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TaskServiceFutureStub(channel, callOptions);
        }
      };
    return TaskServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * TaskService is how workers in any language do the work of nodes. A worker claims
   * attempts for the models it serves, holds each under a lease it extends with
   * heartbeats, and settles it once with a result or a failure and the effect outcome.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * ClaimTasks waits up to `wait_ms` for ready attempts and returns up to `max_tasks`
     * of them, each leased to the worker for `lease_ms`.
     * </pre>
     */
    default void claimTasks(dev.praxis.aiws.engine.v1.ClaimTasksRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ClaimTasksResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getClaimTasksMethod(), responseObserver);
    }

    /**
     * <pre>
     * Heartbeat extends an attempt's lease and says whether it was cancelled.
     * </pre>
     */
    default void heartbeat(dev.praxis.aiws.engine.v1.HeartbeatRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.HeartbeatResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getHeartbeatMethod(), responseObserver);
    }

    /**
     * <pre>
     * CompleteTask settles an attempt with a result, validated against the node's output
     * contract and the result size cap. Idempotent for the same attempt and payload.
     * </pre>
     */
    default void completeTask(dev.praxis.aiws.engine.v1.CompleteTaskRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CompleteTaskResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCompleteTaskMethod(), responseObserver);
    }

    /**
     * <pre>
     * FailTask settles an attempt as failed. Idempotent for the same attempt and payload.
     * </pre>
     */
    default void failTask(dev.praxis.aiws.engine.v1.FailTaskRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.FailTaskResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getFailTaskMethod(), responseObserver);
    }

    /**
     * <pre>
     * SettleTasks settles up to 100 attempts in one round trip and then, when `claim` is
     * set, claims the worker's next tasks (waiting up to `claim.wait_ms` like ClaimTasks).
     * The settlements are committed together; each is decided and answered on its own, so
     * a stale, foreign or invalid one never affects the others. Settling the same attempt
     * twice with the same payload answers `replayed = true`, as CompleteTask and FailTask do.
     * </pre>
     */
    default void settleTasks(dev.praxis.aiws.engine.v1.SettleTasksRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SettleTasksResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSettleTasksMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListModels returns the models StartRun accepts now: those declared in the server's
     * configuration and those a worker registered by claiming for them, each
     * registration lasting 10 minutes after that worker's latest claim.
     * </pre>
     */
    default void listModels(dev.praxis.aiws.engine.v1.ListModelsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListModelsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListModelsMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service TaskService.
   * <pre>
   * TaskService is how workers in any language do the work of nodes. A worker claims
   * attempts for the models it serves, holds each under a lease it extends with
   * heartbeats, and settles it once with a result or a failure and the effect outcome.
   * </pre>
   */
  public static abstract class TaskServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return TaskServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service TaskService.
   * <pre>
   * TaskService is how workers in any language do the work of nodes. A worker claims
   * attempts for the models it serves, holds each under a lease it extends with
   * heartbeats, and settles it once with a result or a failure and the effect outcome.
   * </pre>
   */
  public static final class TaskServiceStub
      extends io.grpc.stub.AbstractAsyncStub<TaskServiceStub> {
    private TaskServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TaskServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TaskServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ClaimTasks waits up to `wait_ms` for ready attempts and returns up to `max_tasks`
     * of them, each leased to the worker for `lease_ms`.
     * </pre>
     */
    public void claimTasks(dev.praxis.aiws.engine.v1.ClaimTasksRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ClaimTasksResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getClaimTasksMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Heartbeat extends an attempt's lease and says whether it was cancelled.
     * </pre>
     */
    public void heartbeat(dev.praxis.aiws.engine.v1.HeartbeatRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.HeartbeatResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getHeartbeatMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CompleteTask settles an attempt with a result, validated against the node's output
     * contract and the result size cap. Idempotent for the same attempt and payload.
     * </pre>
     */
    public void completeTask(dev.praxis.aiws.engine.v1.CompleteTaskRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CompleteTaskResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCompleteTaskMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * FailTask settles an attempt as failed. Idempotent for the same attempt and payload.
     * </pre>
     */
    public void failTask(dev.praxis.aiws.engine.v1.FailTaskRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.FailTaskResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getFailTaskMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * SettleTasks settles up to 100 attempts in one round trip and then, when `claim` is
     * set, claims the worker's next tasks (waiting up to `claim.wait_ms` like ClaimTasks).
     * The settlements are committed together; each is decided and answered on its own, so
     * a stale, foreign or invalid one never affects the others. Settling the same attempt
     * twice with the same payload answers `replayed = true`, as CompleteTask and FailTask do.
     * </pre>
     */
    public void settleTasks(dev.praxis.aiws.engine.v1.SettleTasksRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SettleTasksResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSettleTasksMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListModels returns the models StartRun accepts now: those declared in the server's
     * configuration and those a worker registered by claiming for them, each
     * registration lasting 10 minutes after that worker's latest claim.
     * </pre>
     */
    public void listModels(dev.praxis.aiws.engine.v1.ListModelsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListModelsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListModelsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service TaskService.
   * <pre>
   * TaskService is how workers in any language do the work of nodes. A worker claims
   * attempts for the models it serves, holds each under a lease it extends with
   * heartbeats, and settles it once with a result or a failure and the effect outcome.
   * </pre>
   */
  public static final class TaskServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<TaskServiceBlockingV2Stub> {
    private TaskServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TaskServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TaskServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * ClaimTasks waits up to `wait_ms` for ready attempts and returns up to `max_tasks`
     * of them, each leased to the worker for `lease_ms`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ClaimTasksResponse claimTasks(dev.praxis.aiws.engine.v1.ClaimTasksRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getClaimTasksMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Heartbeat extends an attempt's lease and says whether it was cancelled.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.HeartbeatResponse heartbeat(dev.praxis.aiws.engine.v1.HeartbeatRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getHeartbeatMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CompleteTask settles an attempt with a result, validated against the node's output
     * contract and the result size cap. Idempotent for the same attempt and payload.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CompleteTaskResponse completeTask(dev.praxis.aiws.engine.v1.CompleteTaskRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCompleteTaskMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * FailTask settles an attempt as failed. Idempotent for the same attempt and payload.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.FailTaskResponse failTask(dev.praxis.aiws.engine.v1.FailTaskRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getFailTaskMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SettleTasks settles up to 100 attempts in one round trip and then, when `claim` is
     * set, claims the worker's next tasks (waiting up to `claim.wait_ms` like ClaimTasks).
     * The settlements are committed together; each is decided and answered on its own, so
     * a stale, foreign or invalid one never affects the others. Settling the same attempt
     * twice with the same payload answers `replayed = true`, as CompleteTask and FailTask do.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.SettleTasksResponse settleTasks(dev.praxis.aiws.engine.v1.SettleTasksRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSettleTasksMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListModels returns the models StartRun accepts now: those declared in the server's
     * configuration and those a worker registered by claiming for them, each
     * registration lasting 10 minutes after that worker's latest claim.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListModelsResponse listModels(dev.praxis.aiws.engine.v1.ListModelsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListModelsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service TaskService.
   * <pre>
   * TaskService is how workers in any language do the work of nodes. A worker claims
   * attempts for the models it serves, holds each under a lease it extends with
   * heartbeats, and settles it once with a result or a failure and the effect outcome.
   * </pre>
   */
  public static final class TaskServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<TaskServiceBlockingStub> {
    private TaskServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TaskServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TaskServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ClaimTasks waits up to `wait_ms` for ready attempts and returns up to `max_tasks`
     * of them, each leased to the worker for `lease_ms`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ClaimTasksResponse claimTasks(dev.praxis.aiws.engine.v1.ClaimTasksRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getClaimTasksMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Heartbeat extends an attempt's lease and says whether it was cancelled.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.HeartbeatResponse heartbeat(dev.praxis.aiws.engine.v1.HeartbeatRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getHeartbeatMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CompleteTask settles an attempt with a result, validated against the node's output
     * contract and the result size cap. Idempotent for the same attempt and payload.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CompleteTaskResponse completeTask(dev.praxis.aiws.engine.v1.CompleteTaskRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCompleteTaskMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * FailTask settles an attempt as failed. Idempotent for the same attempt and payload.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.FailTaskResponse failTask(dev.praxis.aiws.engine.v1.FailTaskRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getFailTaskMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SettleTasks settles up to 100 attempts in one round trip and then, when `claim` is
     * set, claims the worker's next tasks (waiting up to `claim.wait_ms` like ClaimTasks).
     * The settlements are committed together; each is decided and answered on its own, so
     * a stale, foreign or invalid one never affects the others. Settling the same attempt
     * twice with the same payload answers `replayed = true`, as CompleteTask and FailTask do.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.SettleTasksResponse settleTasks(dev.praxis.aiws.engine.v1.SettleTasksRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSettleTasksMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListModels returns the models StartRun accepts now: those declared in the server's
     * configuration and those a worker registered by claiming for them, each
     * registration lasting 10 minutes after that worker's latest claim.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListModelsResponse listModels(dev.praxis.aiws.engine.v1.ListModelsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListModelsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service TaskService.
   * <pre>
   * TaskService is how workers in any language do the work of nodes. A worker claims
   * attempts for the models it serves, holds each under a lease it extends with
   * heartbeats, and settles it once with a result or a failure and the effect outcome.
   * </pre>
   */
  public static final class TaskServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<TaskServiceFutureStub> {
    private TaskServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TaskServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TaskServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ClaimTasks waits up to `wait_ms` for ready attempts and returns up to `max_tasks`
     * of them, each leased to the worker for `lease_ms`.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ClaimTasksResponse> claimTasks(
        dev.praxis.aiws.engine.v1.ClaimTasksRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getClaimTasksMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Heartbeat extends an attempt's lease and says whether it was cancelled.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.HeartbeatResponse> heartbeat(
        dev.praxis.aiws.engine.v1.HeartbeatRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getHeartbeatMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CompleteTask settles an attempt with a result, validated against the node's output
     * contract and the result size cap. Idempotent for the same attempt and payload.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CompleteTaskResponse> completeTask(
        dev.praxis.aiws.engine.v1.CompleteTaskRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCompleteTaskMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * FailTask settles an attempt as failed. Idempotent for the same attempt and payload.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.FailTaskResponse> failTask(
        dev.praxis.aiws.engine.v1.FailTaskRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getFailTaskMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * SettleTasks settles up to 100 attempts in one round trip and then, when `claim` is
     * set, claims the worker's next tasks (waiting up to `claim.wait_ms` like ClaimTasks).
     * The settlements are committed together; each is decided and answered on its own, so
     * a stale, foreign or invalid one never affects the others. Settling the same attempt
     * twice with the same payload answers `replayed = true`, as CompleteTask and FailTask do.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.SettleTasksResponse> settleTasks(
        dev.praxis.aiws.engine.v1.SettleTasksRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSettleTasksMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListModels returns the models StartRun accepts now: those declared in the server's
     * configuration and those a worker registered by claiming for them, each
     * registration lasting 10 minutes after that worker's latest claim.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListModelsResponse> listModels(
        dev.praxis.aiws.engine.v1.ListModelsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListModelsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CLAIM_TASKS = 0;
  private static final int METHODID_HEARTBEAT = 1;
  private static final int METHODID_COMPLETE_TASK = 2;
  private static final int METHODID_FAIL_TASK = 3;
  private static final int METHODID_SETTLE_TASKS = 4;
  private static final int METHODID_LIST_MODELS = 5;

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
        case METHODID_CLAIM_TASKS:
          serviceImpl.claimTasks((dev.praxis.aiws.engine.v1.ClaimTasksRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ClaimTasksResponse>) responseObserver);
          break;
        case METHODID_HEARTBEAT:
          serviceImpl.heartbeat((dev.praxis.aiws.engine.v1.HeartbeatRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.HeartbeatResponse>) responseObserver);
          break;
        case METHODID_COMPLETE_TASK:
          serviceImpl.completeTask((dev.praxis.aiws.engine.v1.CompleteTaskRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CompleteTaskResponse>) responseObserver);
          break;
        case METHODID_FAIL_TASK:
          serviceImpl.failTask((dev.praxis.aiws.engine.v1.FailTaskRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.FailTaskResponse>) responseObserver);
          break;
        case METHODID_SETTLE_TASKS:
          serviceImpl.settleTasks((dev.praxis.aiws.engine.v1.SettleTasksRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SettleTasksResponse>) responseObserver);
          break;
        case METHODID_LIST_MODELS:
          serviceImpl.listModels((dev.praxis.aiws.engine.v1.ListModelsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListModelsResponse>) responseObserver);
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
          getClaimTasksMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ClaimTasksRequest,
              dev.praxis.aiws.engine.v1.ClaimTasksResponse>(
                service, METHODID_CLAIM_TASKS)))
        .addMethod(
          getHeartbeatMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.HeartbeatRequest,
              dev.praxis.aiws.engine.v1.HeartbeatResponse>(
                service, METHODID_HEARTBEAT)))
        .addMethod(
          getCompleteTaskMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CompleteTaskRequest,
              dev.praxis.aiws.engine.v1.CompleteTaskResponse>(
                service, METHODID_COMPLETE_TASK)))
        .addMethod(
          getFailTaskMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.FailTaskRequest,
              dev.praxis.aiws.engine.v1.FailTaskResponse>(
                service, METHODID_FAIL_TASK)))
        .addMethod(
          getSettleTasksMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.SettleTasksRequest,
              dev.praxis.aiws.engine.v1.SettleTasksResponse>(
                service, METHODID_SETTLE_TASKS)))
        .addMethod(
          getListModelsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListModelsRequest,
              dev.praxis.aiws.engine.v1.ListModelsResponse>(
                service, METHODID_LIST_MODELS)))
        .build();
  }

  private static abstract class TaskServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    TaskServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.TaskOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("TaskService");
    }
  }

  private static final class TaskServiceFileDescriptorSupplier
      extends TaskServiceBaseDescriptorSupplier {
    TaskServiceFileDescriptorSupplier() {}
  }

  private static final class TaskServiceMethodDescriptorSupplier
      extends TaskServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    TaskServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (TaskServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new TaskServiceFileDescriptorSupplier())
              .addMethod(getClaimTasksMethod())
              .addMethod(getHeartbeatMethod())
              .addMethod(getCompleteTaskMethod())
              .addMethod(getFailTaskMethod())
              .addMethod(getSettleTasksMethod())
              .addMethod(getListModelsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
