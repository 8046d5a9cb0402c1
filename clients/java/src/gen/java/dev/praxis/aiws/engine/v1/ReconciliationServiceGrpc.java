package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * ReconciliationService settles uncertain effects. An attempt settled with
 * `EFFECT_OUTCOME_UNCERTAIN` opens a reconciliation and blocks its node (and so the
 * run's completion); so does an attempt that ended without the worker's report (lease
 * lost, timeout, run stopped under it) on a node whose effects are not declared
 * retry-safe (see `NodeEffects` in task.proto). A human reviews the exact material with ReviewReconciliation,
 * approves its digest with `ApprovalService.CreateApproval`, and Reconcile consumes
 * that approval: a decision of NOT_APPLIED retries the node under the same operation id
 * (a new attempt id); APPLIED never runs it again: it completes the node with the
 * attempt's result, or, for an attempt that reported none (it failed, or ended without
 * a report), with the `result_json` the human established (checked against the node's
 * output contract and part of the approved material); without one the node fails for
 * good.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class ReconciliationServiceGrpc {

  private ReconciliationServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.ReconciliationService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListReconciliationsRequest,
      dev.praxis.aiws.engine.v1.ListReconciliationsResponse> getListReconciliationsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListReconciliations",
      requestType = dev.praxis.aiws.engine.v1.ListReconciliationsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListReconciliationsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListReconciliationsRequest,
      dev.praxis.aiws.engine.v1.ListReconciliationsResponse> getListReconciliationsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListReconciliationsRequest, dev.praxis.aiws.engine.v1.ListReconciliationsResponse> getListReconciliationsMethod;
    if ((getListReconciliationsMethod = ReconciliationServiceGrpc.getListReconciliationsMethod) == null) {
      synchronized (ReconciliationServiceGrpc.class) {
        if ((getListReconciliationsMethod = ReconciliationServiceGrpc.getListReconciliationsMethod) == null) {
          ReconciliationServiceGrpc.getListReconciliationsMethod = getListReconciliationsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListReconciliationsRequest, dev.praxis.aiws.engine.v1.ListReconciliationsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListReconciliations"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListReconciliationsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListReconciliationsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ReconciliationServiceMethodDescriptorSupplier("ListReconciliations"))
              .build();
        }
      }
    }
    return getListReconciliationsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewReconciliationRequest,
      dev.praxis.aiws.engine.v1.ReviewReconciliationResponse> getReviewReconciliationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReviewReconciliation",
      requestType = dev.praxis.aiws.engine.v1.ReviewReconciliationRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ReviewReconciliationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewReconciliationRequest,
      dev.praxis.aiws.engine.v1.ReviewReconciliationResponse> getReviewReconciliationMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewReconciliationRequest, dev.praxis.aiws.engine.v1.ReviewReconciliationResponse> getReviewReconciliationMethod;
    if ((getReviewReconciliationMethod = ReconciliationServiceGrpc.getReviewReconciliationMethod) == null) {
      synchronized (ReconciliationServiceGrpc.class) {
        if ((getReviewReconciliationMethod = ReconciliationServiceGrpc.getReviewReconciliationMethod) == null) {
          ReconciliationServiceGrpc.getReviewReconciliationMethod = getReviewReconciliationMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ReviewReconciliationRequest, dev.praxis.aiws.engine.v1.ReviewReconciliationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReviewReconciliation"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewReconciliationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewReconciliationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ReconciliationServiceMethodDescriptorSupplier("ReviewReconciliation"))
              .build();
        }
      }
    }
    return getReviewReconciliationMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReconcileRequest,
      dev.praxis.aiws.engine.v1.ReconcileResponse> getReconcileMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Reconcile",
      requestType = dev.praxis.aiws.engine.v1.ReconcileRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ReconcileResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReconcileRequest,
      dev.praxis.aiws.engine.v1.ReconcileResponse> getReconcileMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReconcileRequest, dev.praxis.aiws.engine.v1.ReconcileResponse> getReconcileMethod;
    if ((getReconcileMethod = ReconciliationServiceGrpc.getReconcileMethod) == null) {
      synchronized (ReconciliationServiceGrpc.class) {
        if ((getReconcileMethod = ReconciliationServiceGrpc.getReconcileMethod) == null) {
          ReconciliationServiceGrpc.getReconcileMethod = getReconcileMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ReconcileRequest, dev.praxis.aiws.engine.v1.ReconcileResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Reconcile"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReconcileRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReconcileResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ReconciliationServiceMethodDescriptorSupplier("Reconcile"))
              .build();
        }
      }
    }
    return getReconcileMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ReconciliationServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceStub>() {
        @java.lang.Override
        public ReconciliationServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ReconciliationServiceStub(channel, callOptions);
        }
      };
    return ReconciliationServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static ReconciliationServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceBlockingV2Stub>() {
        @java.lang.Override
        public ReconciliationServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ReconciliationServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return ReconciliationServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ReconciliationServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceBlockingStub>() {
        @java.lang.Override
        public ReconciliationServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ReconciliationServiceBlockingStub(channel, callOptions);
        }
      };
    return ReconciliationServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ReconciliationServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ReconciliationServiceFutureStub>() {
        @java.lang.Override
        public ReconciliationServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ReconciliationServiceFutureStub(channel, callOptions);
        }
      };
    return ReconciliationServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * ReconciliationService settles uncertain effects. An attempt settled with
   * `EFFECT_OUTCOME_UNCERTAIN` opens a reconciliation and blocks its node (and so the
   * run's completion); so does an attempt that ended without the worker's report (lease
   * lost, timeout, run stopped under it) on a node whose effects are not declared
   * retry-safe (see `NodeEffects` in task.proto). A human reviews the exact material with ReviewReconciliation,
   * approves its digest with `ApprovalService.CreateApproval`, and Reconcile consumes
   * that approval: a decision of NOT_APPLIED retries the node under the same operation id
   * (a new attempt id); APPLIED never runs it again: it completes the node with the
   * attempt's result, or, for an attempt that reported none (it failed, or ended without
   * a report), with the `result_json` the human established (checked against the node's
   * output contract and part of the approved material); without one the node fails for
   * good.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * ListReconciliations lists the reconciliations of a run, oldest first.
     * </pre>
     */
    default void listReconciliations(dev.praxis.aiws.engine.v1.ListReconciliationsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListReconciliationsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListReconciliationsMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReviewReconciliation returns the exact material a human approves for a decision
     * and its digest. It writes nothing.
     * </pre>
     */
    default void reviewReconciliation(dev.praxis.aiws.engine.v1.ReviewReconciliationRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewReconciliationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReviewReconciliationMethod(), responseObserver);
    }

    /**
     * <pre>
     * Reconcile records a reviewed decision, consuming a verified human approval of its
     * material. A repeated request_id with the same request returns the original result
     * with `replayed = true`.
     * </pre>
     */
    default void reconcile(dev.praxis.aiws.engine.v1.ReconcileRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReconcileResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReconcileMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service ReconciliationService.
   * <pre>
   * ReconciliationService settles uncertain effects. An attempt settled with
   * `EFFECT_OUTCOME_UNCERTAIN` opens a reconciliation and blocks its node (and so the
   * run's completion); so does an attempt that ended without the worker's report (lease
   * lost, timeout, run stopped under it) on a node whose effects are not declared
   * retry-safe (see `NodeEffects` in task.proto). A human reviews the exact material with ReviewReconciliation,
   * approves its digest with `ApprovalService.CreateApproval`, and Reconcile consumes
   * that approval: a decision of NOT_APPLIED retries the node under the same operation id
   * (a new attempt id); APPLIED never runs it again: it completes the node with the
   * attempt's result, or, for an attempt that reported none (it failed, or ended without
   * a report), with the `result_json` the human established (checked against the node's
   * output contract and part of the approved material); without one the node fails for
   * good.
   * </pre>
   */
  public static abstract class ReconciliationServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return ReconciliationServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service ReconciliationService.
   * <pre>
   * ReconciliationService settles uncertain effects. An attempt settled with
   * `EFFECT_OUTCOME_UNCERTAIN` opens a reconciliation and blocks its node (and so the
   * run's completion); so does an attempt that ended without the worker's report (lease
   * lost, timeout, run stopped under it) on a node whose effects are not declared
   * retry-safe (see `NodeEffects` in task.proto). A human reviews the exact material with ReviewReconciliation,
   * approves its digest with `ApprovalService.CreateApproval`, and Reconcile consumes
   * that approval: a decision of NOT_APPLIED retries the node under the same operation id
   * (a new attempt id); APPLIED never runs it again: it completes the node with the
   * attempt's result, or, for an attempt that reported none (it failed, or ended without
   * a report), with the `result_json` the human established (checked against the node's
   * output contract and part of the approved material); without one the node fails for
   * good.
   * </pre>
   */
  public static final class ReconciliationServiceStub
      extends io.grpc.stub.AbstractAsyncStub<ReconciliationServiceStub> {
    private ReconciliationServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ReconciliationServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ReconciliationServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListReconciliations lists the reconciliations of a run, oldest first.
     * </pre>
     */
    public void listReconciliations(dev.praxis.aiws.engine.v1.ListReconciliationsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListReconciliationsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListReconciliationsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReviewReconciliation returns the exact material a human approves for a decision
     * and its digest. It writes nothing.
     * </pre>
     */
    public void reviewReconciliation(dev.praxis.aiws.engine.v1.ReviewReconciliationRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewReconciliationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReviewReconciliationMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Reconcile records a reviewed decision, consuming a verified human approval of its
     * material. A repeated request_id with the same request returns the original result
     * with `replayed = true`.
     * </pre>
     */
    public void reconcile(dev.praxis.aiws.engine.v1.ReconcileRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReconcileResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReconcileMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service ReconciliationService.
   * <pre>
   * ReconciliationService settles uncertain effects. An attempt settled with
   * `EFFECT_OUTCOME_UNCERTAIN` opens a reconciliation and blocks its node (and so the
   * run's completion); so does an attempt that ended without the worker's report (lease
   * lost, timeout, run stopped under it) on a node whose effects are not declared
   * retry-safe (see `NodeEffects` in task.proto). A human reviews the exact material with ReviewReconciliation,
   * approves its digest with `ApprovalService.CreateApproval`, and Reconcile consumes
   * that approval: a decision of NOT_APPLIED retries the node under the same operation id
   * (a new attempt id); APPLIED never runs it again: it completes the node with the
   * attempt's result, or, for an attempt that reported none (it failed, or ended without
   * a report), with the `result_json` the human established (checked against the node's
   * output contract and part of the approved material); without one the node fails for
   * good.
   * </pre>
   */
  public static final class ReconciliationServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<ReconciliationServiceBlockingV2Stub> {
    private ReconciliationServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ReconciliationServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ReconciliationServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * ListReconciliations lists the reconciliations of a run, oldest first.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListReconciliationsResponse listReconciliations(dev.praxis.aiws.engine.v1.ListReconciliationsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListReconciliationsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewReconciliation returns the exact material a human approves for a decision
     * and its digest. It writes nothing.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewReconciliationResponse reviewReconciliation(dev.praxis.aiws.engine.v1.ReviewReconciliationRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReviewReconciliationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Reconcile records a reviewed decision, consuming a verified human approval of its
     * material. A repeated request_id with the same request returns the original result
     * with `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReconcileResponse reconcile(dev.praxis.aiws.engine.v1.ReconcileRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReconcileMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service ReconciliationService.
   * <pre>
   * ReconciliationService settles uncertain effects. An attempt settled with
   * `EFFECT_OUTCOME_UNCERTAIN` opens a reconciliation and blocks its node (and so the
   * run's completion); so does an attempt that ended without the worker's report (lease
   * lost, timeout, run stopped under it) on a node whose effects are not declared
   * retry-safe (see `NodeEffects` in task.proto). A human reviews the exact material with ReviewReconciliation,
   * approves its digest with `ApprovalService.CreateApproval`, and Reconcile consumes
   * that approval: a decision of NOT_APPLIED retries the node under the same operation id
   * (a new attempt id); APPLIED never runs it again: it completes the node with the
   * attempt's result, or, for an attempt that reported none (it failed, or ended without
   * a report), with the `result_json` the human established (checked against the node's
   * output contract and part of the approved material); without one the node fails for
   * good.
   * </pre>
   */
  public static final class ReconciliationServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<ReconciliationServiceBlockingStub> {
    private ReconciliationServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ReconciliationServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ReconciliationServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListReconciliations lists the reconciliations of a run, oldest first.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListReconciliationsResponse listReconciliations(dev.praxis.aiws.engine.v1.ListReconciliationsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListReconciliationsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewReconciliation returns the exact material a human approves for a decision
     * and its digest. It writes nothing.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewReconciliationResponse reviewReconciliation(dev.praxis.aiws.engine.v1.ReviewReconciliationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReviewReconciliationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Reconcile records a reviewed decision, consuming a verified human approval of its
     * material. A repeated request_id with the same request returns the original result
     * with `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReconcileResponse reconcile(dev.praxis.aiws.engine.v1.ReconcileRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReconcileMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service ReconciliationService.
   * <pre>
   * ReconciliationService settles uncertain effects. An attempt settled with
   * `EFFECT_OUTCOME_UNCERTAIN` opens a reconciliation and blocks its node (and so the
   * run's completion); so does an attempt that ended without the worker's report (lease
   * lost, timeout, run stopped under it) on a node whose effects are not declared
   * retry-safe (see `NodeEffects` in task.proto). A human reviews the exact material with ReviewReconciliation,
   * approves its digest with `ApprovalService.CreateApproval`, and Reconcile consumes
   * that approval: a decision of NOT_APPLIED retries the node under the same operation id
   * (a new attempt id); APPLIED never runs it again: it completes the node with the
   * attempt's result, or, for an attempt that reported none (it failed, or ended without
   * a report), with the `result_json` the human established (checked against the node's
   * output contract and part of the approved material); without one the node fails for
   * good.
   * </pre>
   */
  public static final class ReconciliationServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<ReconciliationServiceFutureStub> {
    private ReconciliationServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ReconciliationServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ReconciliationServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListReconciliations lists the reconciliations of a run, oldest first.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListReconciliationsResponse> listReconciliations(
        dev.praxis.aiws.engine.v1.ListReconciliationsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListReconciliationsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReviewReconciliation returns the exact material a human approves for a decision
     * and its digest. It writes nothing.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ReviewReconciliationResponse> reviewReconciliation(
        dev.praxis.aiws.engine.v1.ReviewReconciliationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReviewReconciliationMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Reconcile records a reviewed decision, consuming a verified human approval of its
     * material. A repeated request_id with the same request returns the original result
     * with `replayed = true`.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ReconcileResponse> reconcile(
        dev.praxis.aiws.engine.v1.ReconcileRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReconcileMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_RECONCILIATIONS = 0;
  private static final int METHODID_REVIEW_RECONCILIATION = 1;
  private static final int METHODID_RECONCILE = 2;

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
        case METHODID_LIST_RECONCILIATIONS:
          serviceImpl.listReconciliations((dev.praxis.aiws.engine.v1.ListReconciliationsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListReconciliationsResponse>) responseObserver);
          break;
        case METHODID_REVIEW_RECONCILIATION:
          serviceImpl.reviewReconciliation((dev.praxis.aiws.engine.v1.ReviewReconciliationRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewReconciliationResponse>) responseObserver);
          break;
        case METHODID_RECONCILE:
          serviceImpl.reconcile((dev.praxis.aiws.engine.v1.ReconcileRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReconcileResponse>) responseObserver);
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
          getListReconciliationsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListReconciliationsRequest,
              dev.praxis.aiws.engine.v1.ListReconciliationsResponse>(
                service, METHODID_LIST_RECONCILIATIONS)))
        .addMethod(
          getReviewReconciliationMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ReviewReconciliationRequest,
              dev.praxis.aiws.engine.v1.ReviewReconciliationResponse>(
                service, METHODID_REVIEW_RECONCILIATION)))
        .addMethod(
          getReconcileMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ReconcileRequest,
              dev.praxis.aiws.engine.v1.ReconcileResponse>(
                service, METHODID_RECONCILE)))
        .build();
  }

  private static abstract class ReconciliationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ReconciliationServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.ReconciliationOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("ReconciliationService");
    }
  }

  private static final class ReconciliationServiceFileDescriptorSupplier
      extends ReconciliationServiceBaseDescriptorSupplier {
    ReconciliationServiceFileDescriptorSupplier() {}
  }

  private static final class ReconciliationServiceMethodDescriptorSupplier
      extends ReconciliationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    ReconciliationServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (ReconciliationServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ReconciliationServiceFileDescriptorSupplier())
              .addMethod(getListReconciliationsMethod())
              .addMethod(getReviewReconciliationMethod())
              .addMethod(getReconcileMethod())
              .build();
        }
      }
    }
    return result;
  }
}
