package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * RunService starts and observes workflow runs: DAGs of agent nodes with fan-out and
 * joins, executed by workers through TaskService. Every transition is durable; a run
 * survives server restarts and carries on.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class RunServiceGrpc {

  private RunServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.RunService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StartRunRequest,
      dev.praxis.aiws.engine.v1.StartRunResponse> getStartRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StartRun",
      requestType = dev.praxis.aiws.engine.v1.StartRunRequest.class,
      responseType = dev.praxis.aiws.engine.v1.StartRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StartRunRequest,
      dev.praxis.aiws.engine.v1.StartRunResponse> getStartRunMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StartRunRequest, dev.praxis.aiws.engine.v1.StartRunResponse> getStartRunMethod;
    if ((getStartRunMethod = RunServiceGrpc.getStartRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getStartRunMethod = RunServiceGrpc.getStartRunMethod) == null) {
          RunServiceGrpc.getStartRunMethod = getStartRunMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.StartRunRequest, dev.praxis.aiws.engine.v1.StartRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StartRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.StartRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.StartRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("StartRun"))
              .build();
        }
      }
    }
    return getStartRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetRunRequest,
      dev.praxis.aiws.engine.v1.GetRunResponse> getGetRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetRun",
      requestType = dev.praxis.aiws.engine.v1.GetRunRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetRunRequest,
      dev.praxis.aiws.engine.v1.GetRunResponse> getGetRunMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetRunRequest, dev.praxis.aiws.engine.v1.GetRunResponse> getGetRunMethod;
    if ((getGetRunMethod = RunServiceGrpc.getGetRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getGetRunMethod = RunServiceGrpc.getGetRunMethod) == null) {
          RunServiceGrpc.getGetRunMethod = getGetRunMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetRunRequest, dev.praxis.aiws.engine.v1.GetRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetRun"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("GetRun"))
              .build();
        }
      }
    }
    return getGetRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetNodeResultRequest,
      dev.praxis.aiws.engine.v1.GetNodeResultResponse> getGetNodeResultMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetNodeResult",
      requestType = dev.praxis.aiws.engine.v1.GetNodeResultRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetNodeResultResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetNodeResultRequest,
      dev.praxis.aiws.engine.v1.GetNodeResultResponse> getGetNodeResultMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetNodeResultRequest, dev.praxis.aiws.engine.v1.GetNodeResultResponse> getGetNodeResultMethod;
    if ((getGetNodeResultMethod = RunServiceGrpc.getGetNodeResultMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getGetNodeResultMethod = RunServiceGrpc.getGetNodeResultMethod) == null) {
          RunServiceGrpc.getGetNodeResultMethod = getGetNodeResultMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetNodeResultRequest, dev.praxis.aiws.engine.v1.GetNodeResultResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetNodeResult"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetNodeResultRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetNodeResultResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("GetNodeResult"))
              .build();
        }
      }
    }
    return getGetNodeResultMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StopRunRequest,
      dev.praxis.aiws.engine.v1.StopRunResponse> getStopRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StopRun",
      requestType = dev.praxis.aiws.engine.v1.StopRunRequest.class,
      responseType = dev.praxis.aiws.engine.v1.StopRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StopRunRequest,
      dev.praxis.aiws.engine.v1.StopRunResponse> getStopRunMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.StopRunRequest, dev.praxis.aiws.engine.v1.StopRunResponse> getStopRunMethod;
    if ((getStopRunMethod = RunServiceGrpc.getStopRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getStopRunMethod = RunServiceGrpc.getStopRunMethod) == null) {
          RunServiceGrpc.getStopRunMethod = getStopRunMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.StopRunRequest, dev.praxis.aiws.engine.v1.StopRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StopRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.StopRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.StopRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("StopRun"))
              .build();
        }
      }
    }
    return getStopRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeRunRequest,
      dev.praxis.aiws.engine.v1.ResumeRunResponse> getResumeRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ResumeRun",
      requestType = dev.praxis.aiws.engine.v1.ResumeRunRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ResumeRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeRunRequest,
      dev.praxis.aiws.engine.v1.ResumeRunResponse> getResumeRunMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeRunRequest, dev.praxis.aiws.engine.v1.ResumeRunResponse> getResumeRunMethod;
    if ((getResumeRunMethod = RunServiceGrpc.getResumeRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getResumeRunMethod = RunServiceGrpc.getResumeRunMethod) == null) {
          RunServiceGrpc.getResumeRunMethod = getResumeRunMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ResumeRunRequest, dev.praxis.aiws.engine.v1.ResumeRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ResumeRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ResumeRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ResumeRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ResumeRun"))
              .build();
        }
      }
    }
    return getResumeRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewResumeRequest,
      dev.praxis.aiws.engine.v1.ReviewResumeResponse> getReviewResumeMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReviewResume",
      requestType = dev.praxis.aiws.engine.v1.ReviewResumeRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ReviewResumeResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewResumeRequest,
      dev.praxis.aiws.engine.v1.ReviewResumeResponse> getReviewResumeMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewResumeRequest, dev.praxis.aiws.engine.v1.ReviewResumeResponse> getReviewResumeMethod;
    if ((getReviewResumeMethod = RunServiceGrpc.getReviewResumeMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getReviewResumeMethod = RunServiceGrpc.getReviewResumeMethod) == null) {
          RunServiceGrpc.getReviewResumeMethod = getReviewResumeMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ReviewResumeRequest, dev.praxis.aiws.engine.v1.ReviewResumeResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReviewResume"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewResumeRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewResumeResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ReviewResume"))
              .build();
        }
      }
    }
    return getReviewResumeMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.WatchRunRequest,
      dev.praxis.aiws.engine.v1.WatchRunResponse> getWatchRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WatchRun",
      requestType = dev.praxis.aiws.engine.v1.WatchRunRequest.class,
      responseType = dev.praxis.aiws.engine.v1.WatchRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.WatchRunRequest,
      dev.praxis.aiws.engine.v1.WatchRunResponse> getWatchRunMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.WatchRunRequest, dev.praxis.aiws.engine.v1.WatchRunResponse> getWatchRunMethod;
    if ((getWatchRunMethod = RunServiceGrpc.getWatchRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getWatchRunMethod = RunServiceGrpc.getWatchRunMethod) == null) {
          RunServiceGrpc.getWatchRunMethod = getWatchRunMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.WatchRunRequest, dev.praxis.aiws.engine.v1.WatchRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WatchRun"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.WatchRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.WatchRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("WatchRun"))
              .build();
        }
      }
    }
    return getWatchRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRunsRequest,
      dev.praxis.aiws.engine.v1.ListRunsResponse> getListRunsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListRuns",
      requestType = dev.praxis.aiws.engine.v1.ListRunsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListRunsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRunsRequest,
      dev.praxis.aiws.engine.v1.ListRunsResponse> getListRunsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRunsRequest, dev.praxis.aiws.engine.v1.ListRunsResponse> getListRunsMethod;
    if ((getListRunsMethod = RunServiceGrpc.getListRunsMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getListRunsMethod = RunServiceGrpc.getListRunsMethod) == null) {
          RunServiceGrpc.getListRunsMethod = getListRunsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListRunsRequest, dev.praxis.aiws.engine.v1.ListRunsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListRuns"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListRunsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListRunsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ListRuns"))
              .build();
        }
      }
    }
    return getListRunsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRunNodesRequest,
      dev.praxis.aiws.engine.v1.ListRunNodesResponse> getListRunNodesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListRunNodes",
      requestType = dev.praxis.aiws.engine.v1.ListRunNodesRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListRunNodesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRunNodesRequest,
      dev.praxis.aiws.engine.v1.ListRunNodesResponse> getListRunNodesMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRunNodesRequest, dev.praxis.aiws.engine.v1.ListRunNodesResponse> getListRunNodesMethod;
    if ((getListRunNodesMethod = RunServiceGrpc.getListRunNodesMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getListRunNodesMethod = RunServiceGrpc.getListRunNodesMethod) == null) {
          RunServiceGrpc.getListRunNodesMethod = getListRunNodesMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListRunNodesRequest, dev.praxis.aiws.engine.v1.ListRunNodesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListRunNodes"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListRunNodesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListRunNodesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ListRunNodes"))
              .build();
        }
      }
    }
    return getListRunNodesMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static RunServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunServiceStub>() {
        @java.lang.Override
        public RunServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunServiceStub(channel, callOptions);
        }
      };
    return RunServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static RunServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunServiceBlockingV2Stub>() {
        @java.lang.Override
        public RunServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return RunServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static RunServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunServiceBlockingStub>() {
        @java.lang.Override
        public RunServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunServiceBlockingStub(channel, callOptions);
        }
      };
    return RunServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static RunServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunServiceFutureStub>() {
        @java.lang.Override
        public RunServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunServiceFutureStub(channel, callOptions);
        }
      };
    return RunServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * RunService starts and observes workflow runs: DAGs of agent nodes with fan-out and
   * joins, executed by workers through TaskService. Every transition is durable; a run
   * survives server restarts and carries on.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * StartRun starts a run from an inline definition (ad hoc) or from a registry head
     * (governed; the head becomes BOUND and later activations apply to nodes not yet
     * dispatched). A repeated request_id (same principal, same request) returns the
     * existing run with `created = false`. A governed ref runs once: StartRun of a ref
     * that already ran, by another request, is refused with REF_ALREADY_RUN
     * (ALREADY_EXISTS) whose ErrorInfo metadata `run_id` names that run; resume it with
     * ResumeRun, or register a new ref.
     * Every run belongs to exactly one work order (`Run.work_order_id`): a governed run to
     * its ref's; an ad hoc run to its contract's, or to `StartRunRequest.work_order_id`,
     * or, naming neither, to the installation's default work order `default`. The call
     * needs `run.start` on that work order, and the work order's controls apply to the
     * run as to any other of its runs: a cancelled (or canceling) work order refuses the
     * start with WORK_ORDER_CANCELED, a restore or clock-uncertainty hold refuses it with
     * RESTORE_HOLD or CLOCK_UNCERTAIN, and under a paused work order the run is created
     * but none of its attempts is dispatched until the work order is resumed.
     * </pre>
     */
    default void startRun(dev.praxis.aiws.engine.v1.StartRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StartRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStartRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetRun returns a snapshot of a run, and its definition when asked for.
     * </pre>
     */
    default void getRun(dev.praxis.aiws.engine.v1.GetRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetNodeResult returns the stored result of one node (or fan-out item).
     * </pre>
     */
    default void getNodeResult(dev.praxis.aiws.engine.v1.GetNodeResultRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetNodeResultResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetNodeResultMethod(), responseObserver);
    }

    /**
     * <pre>
     * StopRun cancels a run. Nodes not yet running are CANCELLED at once; each running
     * attempt is asked to stop (its node becomes STOPPING and the worker's next heartbeat
     * answers `cancelled`), and the worker's report still settles it until its lease runs
     * out: FailTask with NOT_APPLIED cancels the node, CompleteTask keeps its result and
     * effect (the node is DONE; nothing runs after it), UNCERTAIN opens a reconciliation.
     * Only an attempt whose lease runs out without a report has an UNCERTAIN effect (its
     * node BLOCKED for a reconciliation) when its node's effects are not declared
     * retry-safe (see NodeEffects in task.proto); a retry-safe one is cancelled. Until
     * every stopped attempt has settled the run is CANCELLING, then CANCELLED. Stopping a
     * run that ended or whose outcome is decided (COMPLETING, FAILING, CANCELLING) returns
     * it unchanged. It needs `run.stop` on the run's work order.
     * </pre>
     */
    default void stopRun(dev.praxis.aiws.engine.v1.StopRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StopRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStopRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * ResumeRun runs a FAILED or CANCELLED run (never a FAILING or CANCELLING one) again from where it stopped: its DONE
     * nodes keep their results; its failed and cancelled nodes run again with new
     * attempts, under their operation id where repeating the effect is safe (the node
     * declares effects `none` or `idempotent`, or its last effect was settled as not
     * applied) and under a new one otherwise. The run's events record who resumed it and
     * why (RUN_RESUMED). A run with a node awaiting a reconciliation is refused
     * (RECONCILIATION_REQUIRED). Resuming a governed run is a governed action: it needs
     * `approval_id`, a human's approval of the material ReviewResume returns (which pins
     * the run at its version). So is running again, in any run, a node whose last effect
     * was APPLIED or whose action an authorization wait's approval covered: without
     * `approval_id` such a resume is refused with REAPPROVAL_REQUIRED naming the nodes, and
     * the material lists each such action with its operation and input digest
     * (`ResumeMaterial.reapprove`). With `to_head`, a governed run is resumed onto its ref's
     * head (agent replacement): the nodes the head changes run under their new spec with
     * new operation ids, DONE nodes keep their results; a head that changes a DONE node or
     * the graph's shape is refused with REPLACEMENT_CONFLICT naming the nodes. A repeated
     * request_id with the same request returns the run with `replayed = true`.
     * </pre>
     */
    default void resumeRun(dev.praxis.aiws.engine.v1.ResumeRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getResumeRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReviewResume returns the exact material a human approves before a governed run is
     * resumed (or before any run runs an applied or authorized action again), and its
     * digest: the nodes it runs again, those needing a fresh approval, and with `to_head`
     * the node-level diff between the run's revision and the head. It writes nothing.
     * </pre>
     */
    default void reviewResume(dev.praxis.aiws.engine.v1.ReviewResumeRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewResumeResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReviewResumeMethod(), responseObserver);
    }

    /**
     * <pre>
     * WatchRun streams a snapshot now and after every change until the run ends (reaches
     * COMPLETED, FAILED or CANCELLED: a COMPLETING, FAILING or CANCELLING run has not).
     * </pre>
     */
    default void watchRun(dev.praxis.aiws.engine.v1.WatchRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.WatchRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWatchRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListRuns pages through runs, newest first, optionally filtered by work order, ref,
     * contract, state, starter, creation time and labels (all the filters given must
     * match). It needs `run.read` on the work order filtered by (the ref's when a ref is
     * given), or on every work order (`*`) when none is named.
     * </pre>
     */
    default void listRuns(dev.praxis.aiws.engine.v1.ListRunsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRunsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListRunsMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListRunNodes pages through a run's nodes and fan-out items, in definition then item
     * order, optionally only one node (and its items) or one state. It is the way to read
     * the items of a run too large to carry them in its snapshot (`Run.items_omitted`).
     * </pre>
     */
    default void listRunNodes(dev.praxis.aiws.engine.v1.ListRunNodesRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRunNodesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListRunNodesMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service RunService.
   * <pre>
   * RunService starts and observes workflow runs: DAGs of agent nodes with fan-out and
   * joins, executed by workers through TaskService. Every transition is durable; a run
   * survives server restarts and carries on.
   * </pre>
   */
  public static abstract class RunServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return RunServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service RunService.
   * <pre>
   * RunService starts and observes workflow runs: DAGs of agent nodes with fan-out and
   * joins, executed by workers through TaskService. Every transition is durable; a run
   * survives server restarts and carries on.
   * </pre>
   */
  public static final class RunServiceStub
      extends io.grpc.stub.AbstractAsyncStub<RunServiceStub> {
    private RunServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * StartRun starts a run from an inline definition (ad hoc) or from a registry head
     * (governed; the head becomes BOUND and later activations apply to nodes not yet
     * dispatched). A repeated request_id (same principal, same request) returns the
     * existing run with `created = false`. A governed ref runs once: StartRun of a ref
     * that already ran, by another request, is refused with REF_ALREADY_RUN
     * (ALREADY_EXISTS) whose ErrorInfo metadata `run_id` names that run; resume it with
     * ResumeRun, or register a new ref.
     * Every run belongs to exactly one work order (`Run.work_order_id`): a governed run to
     * its ref's; an ad hoc run to its contract's, or to `StartRunRequest.work_order_id`,
     * or, naming neither, to the installation's default work order `default`. The call
     * needs `run.start` on that work order, and the work order's controls apply to the
     * run as to any other of its runs: a cancelled (or canceling) work order refuses the
     * start with WORK_ORDER_CANCELED, a restore or clock-uncertainty hold refuses it with
     * RESTORE_HOLD or CLOCK_UNCERTAIN, and under a paused work order the run is created
     * but none of its attempts is dispatched until the work order is resumed.
     * </pre>
     */
    public void startRun(dev.praxis.aiws.engine.v1.StartRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StartRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getStartRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetRun returns a snapshot of a run, and its definition when asked for.
     * </pre>
     */
    public void getRun(dev.praxis.aiws.engine.v1.GetRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetNodeResult returns the stored result of one node (or fan-out item).
     * </pre>
     */
    public void getNodeResult(dev.praxis.aiws.engine.v1.GetNodeResultRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetNodeResultResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetNodeResultMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * StopRun cancels a run. Nodes not yet running are CANCELLED at once; each running
     * attempt is asked to stop (its node becomes STOPPING and the worker's next heartbeat
     * answers `cancelled`), and the worker's report still settles it until its lease runs
     * out: FailTask with NOT_APPLIED cancels the node, CompleteTask keeps its result and
     * effect (the node is DONE; nothing runs after it), UNCERTAIN opens a reconciliation.
     * Only an attempt whose lease runs out without a report has an UNCERTAIN effect (its
     * node BLOCKED for a reconciliation) when its node's effects are not declared
     * retry-safe (see NodeEffects in task.proto); a retry-safe one is cancelled. Until
     * every stopped attempt has settled the run is CANCELLING, then CANCELLED. Stopping a
     * run that ended or whose outcome is decided (COMPLETING, FAILING, CANCELLING) returns
     * it unchanged. It needs `run.stop` on the run's work order.
     * </pre>
     */
    public void stopRun(dev.praxis.aiws.engine.v1.StopRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StopRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getStopRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ResumeRun runs a FAILED or CANCELLED run (never a FAILING or CANCELLING one) again from where it stopped: its DONE
     * nodes keep their results; its failed and cancelled nodes run again with new
     * attempts, under their operation id where repeating the effect is safe (the node
     * declares effects `none` or `idempotent`, or its last effect was settled as not
     * applied) and under a new one otherwise. The run's events record who resumed it and
     * why (RUN_RESUMED). A run with a node awaiting a reconciliation is refused
     * (RECONCILIATION_REQUIRED). Resuming a governed run is a governed action: it needs
     * `approval_id`, a human's approval of the material ReviewResume returns (which pins
     * the run at its version). So is running again, in any run, a node whose last effect
     * was APPLIED or whose action an authorization wait's approval covered: without
     * `approval_id` such a resume is refused with REAPPROVAL_REQUIRED naming the nodes, and
     * the material lists each such action with its operation and input digest
     * (`ResumeMaterial.reapprove`). With `to_head`, a governed run is resumed onto its ref's
     * head (agent replacement): the nodes the head changes run under their new spec with
     * new operation ids, DONE nodes keep their results; a head that changes a DONE node or
     * the graph's shape is refused with REPLACEMENT_CONFLICT naming the nodes. A repeated
     * request_id with the same request returns the run with `replayed = true`.
     * </pre>
     */
    public void resumeRun(dev.praxis.aiws.engine.v1.ResumeRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getResumeRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReviewResume returns the exact material a human approves before a governed run is
     * resumed (or before any run runs an applied or authorized action again), and its
     * digest: the nodes it runs again, those needing a fresh approval, and with `to_head`
     * the node-level diff between the run's revision and the head. It writes nothing.
     * </pre>
     */
    public void reviewResume(dev.praxis.aiws.engine.v1.ReviewResumeRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewResumeResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReviewResumeMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * WatchRun streams a snapshot now and after every change until the run ends (reaches
     * COMPLETED, FAILED or CANCELLED: a COMPLETING, FAILING or CANCELLING run has not).
     * </pre>
     */
    public void watchRun(dev.praxis.aiws.engine.v1.WatchRunRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.WatchRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getWatchRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListRuns pages through runs, newest first, optionally filtered by work order, ref,
     * contract, state, starter, creation time and labels (all the filters given must
     * match). It needs `run.read` on the work order filtered by (the ref's when a ref is
     * given), or on every work order (`*`) when none is named.
     * </pre>
     */
    public void listRuns(dev.praxis.aiws.engine.v1.ListRunsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRunsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListRunsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListRunNodes pages through a run's nodes and fan-out items, in definition then item
     * order, optionally only one node (and its items) or one state. It is the way to read
     * the items of a run too large to carry them in its snapshot (`Run.items_omitted`).
     * </pre>
     */
    public void listRunNodes(dev.praxis.aiws.engine.v1.ListRunNodesRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRunNodesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListRunNodesMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service RunService.
   * <pre>
   * RunService starts and observes workflow runs: DAGs of agent nodes with fan-out and
   * joins, executed by workers through TaskService. Every transition is durable; a run
   * survives server restarts and carries on.
   * </pre>
   */
  public static final class RunServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<RunServiceBlockingV2Stub> {
    private RunServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * StartRun starts a run from an inline definition (ad hoc) or from a registry head
     * (governed; the head becomes BOUND and later activations apply to nodes not yet
     * dispatched). A repeated request_id (same principal, same request) returns the
     * existing run with `created = false`. A governed ref runs once: StartRun of a ref
     * that already ran, by another request, is refused with REF_ALREADY_RUN
     * (ALREADY_EXISTS) whose ErrorInfo metadata `run_id` names that run; resume it with
     * ResumeRun, or register a new ref.
     * Every run belongs to exactly one work order (`Run.work_order_id`): a governed run to
     * its ref's; an ad hoc run to its contract's, or to `StartRunRequest.work_order_id`,
     * or, naming neither, to the installation's default work order `default`. The call
     * needs `run.start` on that work order, and the work order's controls apply to the
     * run as to any other of its runs: a cancelled (or canceling) work order refuses the
     * start with WORK_ORDER_CANCELED, a restore or clock-uncertainty hold refuses it with
     * RESTORE_HOLD or CLOCK_UNCERTAIN, and under a paused work order the run is created
     * but none of its attempts is dispatched until the work order is resumed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.StartRunResponse startRun(dev.praxis.aiws.engine.v1.StartRunRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getStartRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetRun returns a snapshot of a run, and its definition when asked for.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetRunResponse getRun(dev.praxis.aiws.engine.v1.GetRunRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetNodeResult returns the stored result of one node (or fan-out item).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetNodeResultResponse getNodeResult(dev.praxis.aiws.engine.v1.GetNodeResultRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetNodeResultMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * StopRun cancels a run. Nodes not yet running are CANCELLED at once; each running
     * attempt is asked to stop (its node becomes STOPPING and the worker's next heartbeat
     * answers `cancelled`), and the worker's report still settles it until its lease runs
     * out: FailTask with NOT_APPLIED cancels the node, CompleteTask keeps its result and
     * effect (the node is DONE; nothing runs after it), UNCERTAIN opens a reconciliation.
     * Only an attempt whose lease runs out without a report has an UNCERTAIN effect (its
     * node BLOCKED for a reconciliation) when its node's effects are not declared
     * retry-safe (see NodeEffects in task.proto); a retry-safe one is cancelled. Until
     * every stopped attempt has settled the run is CANCELLING, then CANCELLED. Stopping a
     * run that ended or whose outcome is decided (COMPLETING, FAILING, CANCELLING) returns
     * it unchanged. It needs `run.stop` on the run's work order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.StopRunResponse stopRun(dev.praxis.aiws.engine.v1.StopRunRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getStopRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeRun runs a FAILED or CANCELLED run (never a FAILING or CANCELLING one) again from where it stopped: its DONE
     * nodes keep their results; its failed and cancelled nodes run again with new
     * attempts, under their operation id where repeating the effect is safe (the node
     * declares effects `none` or `idempotent`, or its last effect was settled as not
     * applied) and under a new one otherwise. The run's events record who resumed it and
     * why (RUN_RESUMED). A run with a node awaiting a reconciliation is refused
     * (RECONCILIATION_REQUIRED). Resuming a governed run is a governed action: it needs
     * `approval_id`, a human's approval of the material ReviewResume returns (which pins
     * the run at its version). So is running again, in any run, a node whose last effect
     * was APPLIED or whose action an authorization wait's approval covered: without
     * `approval_id` such a resume is refused with REAPPROVAL_REQUIRED naming the nodes, and
     * the material lists each such action with its operation and input digest
     * (`ResumeMaterial.reapprove`). With `to_head`, a governed run is resumed onto its ref's
     * head (agent replacement): the nodes the head changes run under their new spec with
     * new operation ids, DONE nodes keep their results; a head that changes a DONE node or
     * the graph's shape is refused with REPLACEMENT_CONFLICT naming the nodes. A repeated
     * request_id with the same request returns the run with `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ResumeRunResponse resumeRun(dev.praxis.aiws.engine.v1.ResumeRunRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getResumeRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewResume returns the exact material a human approves before a governed run is
     * resumed (or before any run runs an applied or authorized action again), and its
     * digest: the nodes it runs again, those needing a fresh approval, and with `to_head`
     * the node-level diff between the run's revision and the head. It writes nothing.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewResumeResponse reviewResume(dev.praxis.aiws.engine.v1.ReviewResumeRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReviewResumeMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * WatchRun streams a snapshot now and after every change until the run ends (reaches
     * COMPLETED, FAILED or CANCELLED: a COMPLETING, FAILING or CANCELLING run has not).
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, dev.praxis.aiws.engine.v1.WatchRunResponse>
        watchRun(dev.praxis.aiws.engine.v1.WatchRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getWatchRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListRuns pages through runs, newest first, optionally filtered by work order, ref,
     * contract, state, starter, creation time and labels (all the filters given must
     * match). It needs `run.read` on the work order filtered by (the ref's when a ref is
     * given), or on every work order (`*`) when none is named.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListRunsResponse listRuns(dev.praxis.aiws.engine.v1.ListRunsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListRunsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListRunNodes pages through a run's nodes and fan-out items, in definition then item
     * order, optionally only one node (and its items) or one state. It is the way to read
     * the items of a run too large to carry them in its snapshot (`Run.items_omitted`).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListRunNodesResponse listRunNodes(dev.praxis.aiws.engine.v1.ListRunNodesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListRunNodesMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service RunService.
   * <pre>
   * RunService starts and observes workflow runs: DAGs of agent nodes with fan-out and
   * joins, executed by workers through TaskService. Every transition is durable; a run
   * survives server restarts and carries on.
   * </pre>
   */
  public static final class RunServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<RunServiceBlockingStub> {
    private RunServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * StartRun starts a run from an inline definition (ad hoc) or from a registry head
     * (governed; the head becomes BOUND and later activations apply to nodes not yet
     * dispatched). A repeated request_id (same principal, same request) returns the
     * existing run with `created = false`. A governed ref runs once: StartRun of a ref
     * that already ran, by another request, is refused with REF_ALREADY_RUN
     * (ALREADY_EXISTS) whose ErrorInfo metadata `run_id` names that run; resume it with
     * ResumeRun, or register a new ref.
     * Every run belongs to exactly one work order (`Run.work_order_id`): a governed run to
     * its ref's; an ad hoc run to its contract's, or to `StartRunRequest.work_order_id`,
     * or, naming neither, to the installation's default work order `default`. The call
     * needs `run.start` on that work order, and the work order's controls apply to the
     * run as to any other of its runs: a cancelled (or canceling) work order refuses the
     * start with WORK_ORDER_CANCELED, a restore or clock-uncertainty hold refuses it with
     * RESTORE_HOLD or CLOCK_UNCERTAIN, and under a paused work order the run is created
     * but none of its attempts is dispatched until the work order is resumed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.StartRunResponse startRun(dev.praxis.aiws.engine.v1.StartRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getStartRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetRun returns a snapshot of a run, and its definition when asked for.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetRunResponse getRun(dev.praxis.aiws.engine.v1.GetRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetNodeResult returns the stored result of one node (or fan-out item).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetNodeResultResponse getNodeResult(dev.praxis.aiws.engine.v1.GetNodeResultRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetNodeResultMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * StopRun cancels a run. Nodes not yet running are CANCELLED at once; each running
     * attempt is asked to stop (its node becomes STOPPING and the worker's next heartbeat
     * answers `cancelled`), and the worker's report still settles it until its lease runs
     * out: FailTask with NOT_APPLIED cancels the node, CompleteTask keeps its result and
     * effect (the node is DONE; nothing runs after it), UNCERTAIN opens a reconciliation.
     * Only an attempt whose lease runs out without a report has an UNCERTAIN effect (its
     * node BLOCKED for a reconciliation) when its node's effects are not declared
     * retry-safe (see NodeEffects in task.proto); a retry-safe one is cancelled. Until
     * every stopped attempt has settled the run is CANCELLING, then CANCELLED. Stopping a
     * run that ended or whose outcome is decided (COMPLETING, FAILING, CANCELLING) returns
     * it unchanged. It needs `run.stop` on the run's work order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.StopRunResponse stopRun(dev.praxis.aiws.engine.v1.StopRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getStopRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeRun runs a FAILED or CANCELLED run (never a FAILING or CANCELLING one) again from where it stopped: its DONE
     * nodes keep their results; its failed and cancelled nodes run again with new
     * attempts, under their operation id where repeating the effect is safe (the node
     * declares effects `none` or `idempotent`, or its last effect was settled as not
     * applied) and under a new one otherwise. The run's events record who resumed it and
     * why (RUN_RESUMED). A run with a node awaiting a reconciliation is refused
     * (RECONCILIATION_REQUIRED). Resuming a governed run is a governed action: it needs
     * `approval_id`, a human's approval of the material ReviewResume returns (which pins
     * the run at its version). So is running again, in any run, a node whose last effect
     * was APPLIED or whose action an authorization wait's approval covered: without
     * `approval_id` such a resume is refused with REAPPROVAL_REQUIRED naming the nodes, and
     * the material lists each such action with its operation and input digest
     * (`ResumeMaterial.reapprove`). With `to_head`, a governed run is resumed onto its ref's
     * head (agent replacement): the nodes the head changes run under their new spec with
     * new operation ids, DONE nodes keep their results; a head that changes a DONE node or
     * the graph's shape is refused with REPLACEMENT_CONFLICT naming the nodes. A repeated
     * request_id with the same request returns the run with `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ResumeRunResponse resumeRun(dev.praxis.aiws.engine.v1.ResumeRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getResumeRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewResume returns the exact material a human approves before a governed run is
     * resumed (or before any run runs an applied or authorized action again), and its
     * digest: the nodes it runs again, those needing a fresh approval, and with `to_head`
     * the node-level diff between the run's revision and the head. It writes nothing.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewResumeResponse reviewResume(dev.praxis.aiws.engine.v1.ReviewResumeRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReviewResumeMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * WatchRun streams a snapshot now and after every change until the run ends (reaches
     * COMPLETED, FAILED or CANCELLED: a COMPLETING, FAILING or CANCELLING run has not).
     * </pre>
     */
    public java.util.Iterator<dev.praxis.aiws.engine.v1.WatchRunResponse> watchRun(
        dev.praxis.aiws.engine.v1.WatchRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getWatchRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListRuns pages through runs, newest first, optionally filtered by work order, ref,
     * contract, state, starter, creation time and labels (all the filters given must
     * match). It needs `run.read` on the work order filtered by (the ref's when a ref is
     * given), or on every work order (`*`) when none is named.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListRunsResponse listRuns(dev.praxis.aiws.engine.v1.ListRunsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListRunsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListRunNodes pages through a run's nodes and fan-out items, in definition then item
     * order, optionally only one node (and its items) or one state. It is the way to read
     * the items of a run too large to carry them in its snapshot (`Run.items_omitted`).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListRunNodesResponse listRunNodes(dev.praxis.aiws.engine.v1.ListRunNodesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListRunNodesMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service RunService.
   * <pre>
   * RunService starts and observes workflow runs: DAGs of agent nodes with fan-out and
   * joins, executed by workers through TaskService. Every transition is durable; a run
   * survives server restarts and carries on.
   * </pre>
   */
  public static final class RunServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<RunServiceFutureStub> {
    private RunServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * StartRun starts a run from an inline definition (ad hoc) or from a registry head
     * (governed; the head becomes BOUND and later activations apply to nodes not yet
     * dispatched). A repeated request_id (same principal, same request) returns the
     * existing run with `created = false`. A governed ref runs once: StartRun of a ref
     * that already ran, by another request, is refused with REF_ALREADY_RUN
     * (ALREADY_EXISTS) whose ErrorInfo metadata `run_id` names that run; resume it with
     * ResumeRun, or register a new ref.
     * Every run belongs to exactly one work order (`Run.work_order_id`): a governed run to
     * its ref's; an ad hoc run to its contract's, or to `StartRunRequest.work_order_id`,
     * or, naming neither, to the installation's default work order `default`. The call
     * needs `run.start` on that work order, and the work order's controls apply to the
     * run as to any other of its runs: a cancelled (or canceling) work order refuses the
     * start with WORK_ORDER_CANCELED, a restore or clock-uncertainty hold refuses it with
     * RESTORE_HOLD or CLOCK_UNCERTAIN, and under a paused work order the run is created
     * but none of its attempts is dispatched until the work order is resumed.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.StartRunResponse> startRun(
        dev.praxis.aiws.engine.v1.StartRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getStartRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetRun returns a snapshot of a run, and its definition when asked for.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetRunResponse> getRun(
        dev.praxis.aiws.engine.v1.GetRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetNodeResult returns the stored result of one node (or fan-out item).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetNodeResultResponse> getNodeResult(
        dev.praxis.aiws.engine.v1.GetNodeResultRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetNodeResultMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * StopRun cancels a run. Nodes not yet running are CANCELLED at once; each running
     * attempt is asked to stop (its node becomes STOPPING and the worker's next heartbeat
     * answers `cancelled`), and the worker's report still settles it until its lease runs
     * out: FailTask with NOT_APPLIED cancels the node, CompleteTask keeps its result and
     * effect (the node is DONE; nothing runs after it), UNCERTAIN opens a reconciliation.
     * Only an attempt whose lease runs out without a report has an UNCERTAIN effect (its
     * node BLOCKED for a reconciliation) when its node's effects are not declared
     * retry-safe (see NodeEffects in task.proto); a retry-safe one is cancelled. Until
     * every stopped attempt has settled the run is CANCELLING, then CANCELLED. Stopping a
     * run that ended or whose outcome is decided (COMPLETING, FAILING, CANCELLING) returns
     * it unchanged. It needs `run.stop` on the run's work order.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.StopRunResponse> stopRun(
        dev.praxis.aiws.engine.v1.StopRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getStopRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ResumeRun runs a FAILED or CANCELLED run (never a FAILING or CANCELLING one) again from where it stopped: its DONE
     * nodes keep their results; its failed and cancelled nodes run again with new
     * attempts, under their operation id where repeating the effect is safe (the node
     * declares effects `none` or `idempotent`, or its last effect was settled as not
     * applied) and under a new one otherwise. The run's events record who resumed it and
     * why (RUN_RESUMED). A run with a node awaiting a reconciliation is refused
     * (RECONCILIATION_REQUIRED). Resuming a governed run is a governed action: it needs
     * `approval_id`, a human's approval of the material ReviewResume returns (which pins
     * the run at its version). So is running again, in any run, a node whose last effect
     * was APPLIED or whose action an authorization wait's approval covered: without
     * `approval_id` such a resume is refused with REAPPROVAL_REQUIRED naming the nodes, and
     * the material lists each such action with its operation and input digest
     * (`ResumeMaterial.reapprove`). With `to_head`, a governed run is resumed onto its ref's
     * head (agent replacement): the nodes the head changes run under their new spec with
     * new operation ids, DONE nodes keep their results; a head that changes a DONE node or
     * the graph's shape is refused with REPLACEMENT_CONFLICT naming the nodes. A repeated
     * request_id with the same request returns the run with `replayed = true`.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ResumeRunResponse> resumeRun(
        dev.praxis.aiws.engine.v1.ResumeRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getResumeRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReviewResume returns the exact material a human approves before a governed run is
     * resumed (or before any run runs an applied or authorized action again), and its
     * digest: the nodes it runs again, those needing a fresh approval, and with `to_head`
     * the node-level diff between the run's revision and the head. It writes nothing.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ReviewResumeResponse> reviewResume(
        dev.praxis.aiws.engine.v1.ReviewResumeRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReviewResumeMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListRuns pages through runs, newest first, optionally filtered by work order, ref,
     * contract, state, starter, creation time and labels (all the filters given must
     * match). It needs `run.read` on the work order filtered by (the ref's when a ref is
     * given), or on every work order (`*`) when none is named.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListRunsResponse> listRuns(
        dev.praxis.aiws.engine.v1.ListRunsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListRunsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListRunNodes pages through a run's nodes and fan-out items, in definition then item
     * order, optionally only one node (and its items) or one state. It is the way to read
     * the items of a run too large to carry them in its snapshot (`Run.items_omitted`).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListRunNodesResponse> listRunNodes(
        dev.praxis.aiws.engine.v1.ListRunNodesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListRunNodesMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_START_RUN = 0;
  private static final int METHODID_GET_RUN = 1;
  private static final int METHODID_GET_NODE_RESULT = 2;
  private static final int METHODID_STOP_RUN = 3;
  private static final int METHODID_RESUME_RUN = 4;
  private static final int METHODID_REVIEW_RESUME = 5;
  private static final int METHODID_WATCH_RUN = 6;
  private static final int METHODID_LIST_RUNS = 7;
  private static final int METHODID_LIST_RUN_NODES = 8;

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
        case METHODID_START_RUN:
          serviceImpl.startRun((dev.praxis.aiws.engine.v1.StartRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StartRunResponse>) responseObserver);
          break;
        case METHODID_GET_RUN:
          serviceImpl.getRun((dev.praxis.aiws.engine.v1.GetRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetRunResponse>) responseObserver);
          break;
        case METHODID_GET_NODE_RESULT:
          serviceImpl.getNodeResult((dev.praxis.aiws.engine.v1.GetNodeResultRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetNodeResultResponse>) responseObserver);
          break;
        case METHODID_STOP_RUN:
          serviceImpl.stopRun((dev.praxis.aiws.engine.v1.StopRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.StopRunResponse>) responseObserver);
          break;
        case METHODID_RESUME_RUN:
          serviceImpl.resumeRun((dev.praxis.aiws.engine.v1.ResumeRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeRunResponse>) responseObserver);
          break;
        case METHODID_REVIEW_RESUME:
          serviceImpl.reviewResume((dev.praxis.aiws.engine.v1.ReviewResumeRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewResumeResponse>) responseObserver);
          break;
        case METHODID_WATCH_RUN:
          serviceImpl.watchRun((dev.praxis.aiws.engine.v1.WatchRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.WatchRunResponse>) responseObserver);
          break;
        case METHODID_LIST_RUNS:
          serviceImpl.listRuns((dev.praxis.aiws.engine.v1.ListRunsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRunsResponse>) responseObserver);
          break;
        case METHODID_LIST_RUN_NODES:
          serviceImpl.listRunNodes((dev.praxis.aiws.engine.v1.ListRunNodesRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRunNodesResponse>) responseObserver);
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
          getStartRunMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.StartRunRequest,
              dev.praxis.aiws.engine.v1.StartRunResponse>(
                service, METHODID_START_RUN)))
        .addMethod(
          getGetRunMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetRunRequest,
              dev.praxis.aiws.engine.v1.GetRunResponse>(
                service, METHODID_GET_RUN)))
        .addMethod(
          getGetNodeResultMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetNodeResultRequest,
              dev.praxis.aiws.engine.v1.GetNodeResultResponse>(
                service, METHODID_GET_NODE_RESULT)))
        .addMethod(
          getStopRunMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.StopRunRequest,
              dev.praxis.aiws.engine.v1.StopRunResponse>(
                service, METHODID_STOP_RUN)))
        .addMethod(
          getResumeRunMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ResumeRunRequest,
              dev.praxis.aiws.engine.v1.ResumeRunResponse>(
                service, METHODID_RESUME_RUN)))
        .addMethod(
          getReviewResumeMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ReviewResumeRequest,
              dev.praxis.aiws.engine.v1.ReviewResumeResponse>(
                service, METHODID_REVIEW_RESUME)))
        .addMethod(
          getWatchRunMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.WatchRunRequest,
              dev.praxis.aiws.engine.v1.WatchRunResponse>(
                service, METHODID_WATCH_RUN)))
        .addMethod(
          getListRunsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListRunsRequest,
              dev.praxis.aiws.engine.v1.ListRunsResponse>(
                service, METHODID_LIST_RUNS)))
        .addMethod(
          getListRunNodesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListRunNodesRequest,
              dev.praxis.aiws.engine.v1.ListRunNodesResponse>(
                service, METHODID_LIST_RUN_NODES)))
        .build();
  }

  private static abstract class RunServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    RunServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.RunOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("RunService");
    }
  }

  private static final class RunServiceFileDescriptorSupplier
      extends RunServiceBaseDescriptorSupplier {
    RunServiceFileDescriptorSupplier() {}
  }

  private static final class RunServiceMethodDescriptorSupplier
      extends RunServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    RunServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (RunServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new RunServiceFileDescriptorSupplier())
              .addMethod(getStartRunMethod())
              .addMethod(getGetRunMethod())
              .addMethod(getGetNodeResultMethod())
              .addMethod(getStopRunMethod())
              .addMethod(getResumeRunMethod())
              .addMethod(getReviewResumeMethod())
              .addMethod(getWatchRunMethod())
              .addMethod(getListRunsMethod())
              .addMethod(getListRunNodesMethod())
              .build();
        }
      }
    }
    return result;
  }
}
