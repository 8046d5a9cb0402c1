package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * WaitService exposes the waits of runs: nodes of kind `human_input`, `timer` or
 * `authorization` that pause a branch until an explicit SatisfyWait or their expiry.
 * A wait's payload is validated against the schema its definition names. On expiry
 * the node fails or takes the definition's default, never before the expiry time, and
 * a satisfaction that arrives at or after the expiry is refused with WAIT_EXPIRED.
 * Waits are durable: they survive restarts.
 * An `authorization` wait is an approval of an exact action: the agent nodes that
 * depend on it directly (its authorised actions, each named by node, operation id, spec
 * digest and input digest). A human reviews the material of a satisfaction with
 * ReviewWait, approves its digest with ApprovalService.CreateApproval, and SatisfyWait
 * names that approval, which is verified (a current human allowed `approval.create` on
 * the run's work order, the material digest equal to what the server computes at
 * satisfaction, not expired) and consumed once, like the approvals of registry commands
 * and reconciliations.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class WaitServiceGrpc {

  private WaitServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.WaitService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWaitRequest,
      dev.praxis.aiws.engine.v1.GetWaitResponse> getGetWaitMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetWait",
      requestType = dev.praxis.aiws.engine.v1.GetWaitRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetWaitResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWaitRequest,
      dev.praxis.aiws.engine.v1.GetWaitResponse> getGetWaitMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWaitRequest, dev.praxis.aiws.engine.v1.GetWaitResponse> getGetWaitMethod;
    if ((getGetWaitMethod = WaitServiceGrpc.getGetWaitMethod) == null) {
      synchronized (WaitServiceGrpc.class) {
        if ((getGetWaitMethod = WaitServiceGrpc.getGetWaitMethod) == null) {
          WaitServiceGrpc.getGetWaitMethod = getGetWaitMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetWaitRequest, dev.praxis.aiws.engine.v1.GetWaitResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetWait"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetWaitRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetWaitResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WaitServiceMethodDescriptorSupplier("GetWait"))
              .build();
        }
      }
    }
    return getGetWaitMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListWaitsRequest,
      dev.praxis.aiws.engine.v1.ListWaitsResponse> getListWaitsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListWaits",
      requestType = dev.praxis.aiws.engine.v1.ListWaitsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListWaitsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListWaitsRequest,
      dev.praxis.aiws.engine.v1.ListWaitsResponse> getListWaitsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListWaitsRequest, dev.praxis.aiws.engine.v1.ListWaitsResponse> getListWaitsMethod;
    if ((getListWaitsMethod = WaitServiceGrpc.getListWaitsMethod) == null) {
      synchronized (WaitServiceGrpc.class) {
        if ((getListWaitsMethod = WaitServiceGrpc.getListWaitsMethod) == null) {
          WaitServiceGrpc.getListWaitsMethod = getListWaitsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListWaitsRequest, dev.praxis.aiws.engine.v1.ListWaitsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListWaits"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListWaitsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListWaitsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WaitServiceMethodDescriptorSupplier("ListWaits"))
              .build();
        }
      }
    }
    return getListWaitsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewWaitRequest,
      dev.praxis.aiws.engine.v1.ReviewWaitResponse> getReviewWaitMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReviewWait",
      requestType = dev.praxis.aiws.engine.v1.ReviewWaitRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ReviewWaitResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewWaitRequest,
      dev.praxis.aiws.engine.v1.ReviewWaitResponse> getReviewWaitMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewWaitRequest, dev.praxis.aiws.engine.v1.ReviewWaitResponse> getReviewWaitMethod;
    if ((getReviewWaitMethod = WaitServiceGrpc.getReviewWaitMethod) == null) {
      synchronized (WaitServiceGrpc.class) {
        if ((getReviewWaitMethod = WaitServiceGrpc.getReviewWaitMethod) == null) {
          WaitServiceGrpc.getReviewWaitMethod = getReviewWaitMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ReviewWaitRequest, dev.praxis.aiws.engine.v1.ReviewWaitResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReviewWait"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewWaitRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewWaitResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WaitServiceMethodDescriptorSupplier("ReviewWait"))
              .build();
        }
      }
    }
    return getReviewWaitMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SatisfyWaitRequest,
      dev.praxis.aiws.engine.v1.SatisfyWaitResponse> getSatisfyWaitMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SatisfyWait",
      requestType = dev.praxis.aiws.engine.v1.SatisfyWaitRequest.class,
      responseType = dev.praxis.aiws.engine.v1.SatisfyWaitResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SatisfyWaitRequest,
      dev.praxis.aiws.engine.v1.SatisfyWaitResponse> getSatisfyWaitMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.SatisfyWaitRequest, dev.praxis.aiws.engine.v1.SatisfyWaitResponse> getSatisfyWaitMethod;
    if ((getSatisfyWaitMethod = WaitServiceGrpc.getSatisfyWaitMethod) == null) {
      synchronized (WaitServiceGrpc.class) {
        if ((getSatisfyWaitMethod = WaitServiceGrpc.getSatisfyWaitMethod) == null) {
          WaitServiceGrpc.getSatisfyWaitMethod = getSatisfyWaitMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.SatisfyWaitRequest, dev.praxis.aiws.engine.v1.SatisfyWaitResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SatisfyWait"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.SatisfyWaitRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.SatisfyWaitResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WaitServiceMethodDescriptorSupplier("SatisfyWait"))
              .build();
        }
      }
    }
    return getSatisfyWaitMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static WaitServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WaitServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WaitServiceStub>() {
        @java.lang.Override
        public WaitServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WaitServiceStub(channel, callOptions);
        }
      };
    return WaitServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static WaitServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WaitServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WaitServiceBlockingV2Stub>() {
        @java.lang.Override
        public WaitServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WaitServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return WaitServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static WaitServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WaitServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WaitServiceBlockingStub>() {
        @java.lang.Override
        public WaitServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WaitServiceBlockingStub(channel, callOptions);
        }
      };
    return WaitServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static WaitServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WaitServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WaitServiceFutureStub>() {
        @java.lang.Override
        public WaitServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WaitServiceFutureStub(channel, callOptions);
        }
      };
    return WaitServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * WaitService exposes the waits of runs: nodes of kind `human_input`, `timer` or
   * `authorization` that pause a branch until an explicit SatisfyWait or their expiry.
   * A wait's payload is validated against the schema its definition names. On expiry
   * the node fails or takes the definition's default, never before the expiry time, and
   * a satisfaction that arrives at or after the expiry is refused with WAIT_EXPIRED.
   * Waits are durable: they survive restarts.
   * An `authorization` wait is an approval of an exact action: the agent nodes that
   * depend on it directly (its authorised actions, each named by node, operation id, spec
   * digest and input digest). A human reviews the material of a satisfaction with
   * ReviewWait, approves its digest with ApprovalService.CreateApproval, and SatisfyWait
   * names that approval, which is verified (a current human allowed `approval.create` on
   * the run's work order, the material digest equal to what the server computes at
   * satisfaction, not expired) and consumed once, like the approvals of registry commands
   * and reconciliations.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * GetWait returns one wait.
     * </pre>
     */
    default void getWait(dev.praxis.aiws.engine.v1.GetWaitRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWaitResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetWaitMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListWaits lists the waits of a run in definition order.
     * </pre>
     */
    default void listWaits(dev.praxis.aiws.engine.v1.ListWaitsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListWaitsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListWaitsMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReviewWait returns the exact material a human approves to satisfy an
     * `authorization` wait with a payload, and its digest. It checks the payload and the
     * wait as SatisfyWait would (WAIT_NOT_OPEN, WAIT_EXPIRED, WAIT_PAYLOAD_INVALID, ...)
     * and writes nothing. Other waits take no approval (APPROVAL_NOT_APPLICABLE). Needs
     * `wait.read` on the run's work order.
     * </pre>
     */
    default void reviewWait(dev.praxis.aiws.engine.v1.ReviewWaitRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewWaitResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReviewWaitMethod(), responseObserver);
    }

    /**
     * <pre>
     * SatisfyWait satisfies a pending wait with a payload; the node completes with the
     * payload as its result. Needs `wait.satisfy` on the run's work order (for a wait
     * that declares a purpose, a grant covering that purpose). `authorization` waits need
     * a verified human and `approval_id`: without it FAILED_PRECONDITION /
     * AUTHORIZATION_APPROVAL_REQUIRED; an approval that is missing, expired, consumed,
     * given for other material (APPROVAL_MISMATCH: another payload, an authorised node
     * that changed, new epochs) or for another purpose is refused and consumes nothing.
     * `human_input` and `timer` waits take no approval (APPROVAL_NOT_APPLICABLE). A
     * repeated request_id with the same payload and approval returns the wait with
     * `replayed = true`, consuming nothing again.
     * </pre>
     */
    default void satisfyWait(dev.praxis.aiws.engine.v1.SatisfyWaitRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SatisfyWaitResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSatisfyWaitMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service WaitService.
   * <pre>
   * WaitService exposes the waits of runs: nodes of kind `human_input`, `timer` or
   * `authorization` that pause a branch until an explicit SatisfyWait or their expiry.
   * A wait's payload is validated against the schema its definition names. On expiry
   * the node fails or takes the definition's default, never before the expiry time, and
   * a satisfaction that arrives at or after the expiry is refused with WAIT_EXPIRED.
   * Waits are durable: they survive restarts.
   * An `authorization` wait is an approval of an exact action: the agent nodes that
   * depend on it directly (its authorised actions, each named by node, operation id, spec
   * digest and input digest). A human reviews the material of a satisfaction with
   * ReviewWait, approves its digest with ApprovalService.CreateApproval, and SatisfyWait
   * names that approval, which is verified (a current human allowed `approval.create` on
   * the run's work order, the material digest equal to what the server computes at
   * satisfaction, not expired) and consumed once, like the approvals of registry commands
   * and reconciliations.
   * </pre>
   */
  public static abstract class WaitServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return WaitServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service WaitService.
   * <pre>
   * WaitService exposes the waits of runs: nodes of kind `human_input`, `timer` or
   * `authorization` that pause a branch until an explicit SatisfyWait or their expiry.
   * A wait's payload is validated against the schema its definition names. On expiry
   * the node fails or takes the definition's default, never before the expiry time, and
   * a satisfaction that arrives at or after the expiry is refused with WAIT_EXPIRED.
   * Waits are durable: they survive restarts.
   * An `authorization` wait is an approval of an exact action: the agent nodes that
   * depend on it directly (its authorised actions, each named by node, operation id, spec
   * digest and input digest). A human reviews the material of a satisfaction with
   * ReviewWait, approves its digest with ApprovalService.CreateApproval, and SatisfyWait
   * names that approval, which is verified (a current human allowed `approval.create` on
   * the run's work order, the material digest equal to what the server computes at
   * satisfaction, not expired) and consumed once, like the approvals of registry commands
   * and reconciliations.
   * </pre>
   */
  public static final class WaitServiceStub
      extends io.grpc.stub.AbstractAsyncStub<WaitServiceStub> {
    private WaitServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WaitServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WaitServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWait returns one wait.
     * </pre>
     */
    public void getWait(dev.praxis.aiws.engine.v1.GetWaitRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWaitResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetWaitMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListWaits lists the waits of a run in definition order.
     * </pre>
     */
    public void listWaits(dev.praxis.aiws.engine.v1.ListWaitsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListWaitsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListWaitsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReviewWait returns the exact material a human approves to satisfy an
     * `authorization` wait with a payload, and its digest. It checks the payload and the
     * wait as SatisfyWait would (WAIT_NOT_OPEN, WAIT_EXPIRED, WAIT_PAYLOAD_INVALID, ...)
     * and writes nothing. Other waits take no approval (APPROVAL_NOT_APPLICABLE). Needs
     * `wait.read` on the run's work order.
     * </pre>
     */
    public void reviewWait(dev.praxis.aiws.engine.v1.ReviewWaitRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewWaitResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReviewWaitMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * SatisfyWait satisfies a pending wait with a payload; the node completes with the
     * payload as its result. Needs `wait.satisfy` on the run's work order (for a wait
     * that declares a purpose, a grant covering that purpose). `authorization` waits need
     * a verified human and `approval_id`: without it FAILED_PRECONDITION /
     * AUTHORIZATION_APPROVAL_REQUIRED; an approval that is missing, expired, consumed,
     * given for other material (APPROVAL_MISMATCH: another payload, an authorised node
     * that changed, new epochs) or for another purpose is refused and consumes nothing.
     * `human_input` and `timer` waits take no approval (APPROVAL_NOT_APPLICABLE). A
     * repeated request_id with the same payload and approval returns the wait with
     * `replayed = true`, consuming nothing again.
     * </pre>
     */
    public void satisfyWait(dev.praxis.aiws.engine.v1.SatisfyWaitRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SatisfyWaitResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSatisfyWaitMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service WaitService.
   * <pre>
   * WaitService exposes the waits of runs: nodes of kind `human_input`, `timer` or
   * `authorization` that pause a branch until an explicit SatisfyWait or their expiry.
   * A wait's payload is validated against the schema its definition names. On expiry
   * the node fails or takes the definition's default, never before the expiry time, and
   * a satisfaction that arrives at or after the expiry is refused with WAIT_EXPIRED.
   * Waits are durable: they survive restarts.
   * An `authorization` wait is an approval of an exact action: the agent nodes that
   * depend on it directly (its authorised actions, each named by node, operation id, spec
   * digest and input digest). A human reviews the material of a satisfaction with
   * ReviewWait, approves its digest with ApprovalService.CreateApproval, and SatisfyWait
   * names that approval, which is verified (a current human allowed `approval.create` on
   * the run's work order, the material digest equal to what the server computes at
   * satisfaction, not expired) and consumed once, like the approvals of registry commands
   * and reconciliations.
   * </pre>
   */
  public static final class WaitServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<WaitServiceBlockingV2Stub> {
    private WaitServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WaitServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WaitServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWait returns one wait.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetWaitResponse getWait(dev.praxis.aiws.engine.v1.GetWaitRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetWaitMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListWaits lists the waits of a run in definition order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListWaitsResponse listWaits(dev.praxis.aiws.engine.v1.ListWaitsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListWaitsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewWait returns the exact material a human approves to satisfy an
     * `authorization` wait with a payload, and its digest. It checks the payload and the
     * wait as SatisfyWait would (WAIT_NOT_OPEN, WAIT_EXPIRED, WAIT_PAYLOAD_INVALID, ...)
     * and writes nothing. Other waits take no approval (APPROVAL_NOT_APPLICABLE). Needs
     * `wait.read` on the run's work order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewWaitResponse reviewWait(dev.praxis.aiws.engine.v1.ReviewWaitRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReviewWaitMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SatisfyWait satisfies a pending wait with a payload; the node completes with the
     * payload as its result. Needs `wait.satisfy` on the run's work order (for a wait
     * that declares a purpose, a grant covering that purpose). `authorization` waits need
     * a verified human and `approval_id`: without it FAILED_PRECONDITION /
     * AUTHORIZATION_APPROVAL_REQUIRED; an approval that is missing, expired, consumed,
     * given for other material (APPROVAL_MISMATCH: another payload, an authorised node
     * that changed, new epochs) or for another purpose is refused and consumes nothing.
     * `human_input` and `timer` waits take no approval (APPROVAL_NOT_APPLICABLE). A
     * repeated request_id with the same payload and approval returns the wait with
     * `replayed = true`, consuming nothing again.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.SatisfyWaitResponse satisfyWait(dev.praxis.aiws.engine.v1.SatisfyWaitRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSatisfyWaitMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service WaitService.
   * <pre>
   * WaitService exposes the waits of runs: nodes of kind `human_input`, `timer` or
   * `authorization` that pause a branch until an explicit SatisfyWait or their expiry.
   * A wait's payload is validated against the schema its definition names. On expiry
   * the node fails or takes the definition's default, never before the expiry time, and
   * a satisfaction that arrives at or after the expiry is refused with WAIT_EXPIRED.
   * Waits are durable: they survive restarts.
   * An `authorization` wait is an approval of an exact action: the agent nodes that
   * depend on it directly (its authorised actions, each named by node, operation id, spec
   * digest and input digest). A human reviews the material of a satisfaction with
   * ReviewWait, approves its digest with ApprovalService.CreateApproval, and SatisfyWait
   * names that approval, which is verified (a current human allowed `approval.create` on
   * the run's work order, the material digest equal to what the server computes at
   * satisfaction, not expired) and consumed once, like the approvals of registry commands
   * and reconciliations.
   * </pre>
   */
  public static final class WaitServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<WaitServiceBlockingStub> {
    private WaitServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WaitServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WaitServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWait returns one wait.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetWaitResponse getWait(dev.praxis.aiws.engine.v1.GetWaitRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetWaitMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListWaits lists the waits of a run in definition order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListWaitsResponse listWaits(dev.praxis.aiws.engine.v1.ListWaitsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListWaitsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewWait returns the exact material a human approves to satisfy an
     * `authorization` wait with a payload, and its digest. It checks the payload and the
     * wait as SatisfyWait would (WAIT_NOT_OPEN, WAIT_EXPIRED, WAIT_PAYLOAD_INVALID, ...)
     * and writes nothing. Other waits take no approval (APPROVAL_NOT_APPLICABLE). Needs
     * `wait.read` on the run's work order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewWaitResponse reviewWait(dev.praxis.aiws.engine.v1.ReviewWaitRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReviewWaitMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SatisfyWait satisfies a pending wait with a payload; the node completes with the
     * payload as its result. Needs `wait.satisfy` on the run's work order (for a wait
     * that declares a purpose, a grant covering that purpose). `authorization` waits need
     * a verified human and `approval_id`: without it FAILED_PRECONDITION /
     * AUTHORIZATION_APPROVAL_REQUIRED; an approval that is missing, expired, consumed,
     * given for other material (APPROVAL_MISMATCH: another payload, an authorised node
     * that changed, new epochs) or for another purpose is refused and consumes nothing.
     * `human_input` and `timer` waits take no approval (APPROVAL_NOT_APPLICABLE). A
     * repeated request_id with the same payload and approval returns the wait with
     * `replayed = true`, consuming nothing again.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.SatisfyWaitResponse satisfyWait(dev.praxis.aiws.engine.v1.SatisfyWaitRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSatisfyWaitMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service WaitService.
   * <pre>
   * WaitService exposes the waits of runs: nodes of kind `human_input`, `timer` or
   * `authorization` that pause a branch until an explicit SatisfyWait or their expiry.
   * A wait's payload is validated against the schema its definition names. On expiry
   * the node fails or takes the definition's default, never before the expiry time, and
   * a satisfaction that arrives at or after the expiry is refused with WAIT_EXPIRED.
   * Waits are durable: they survive restarts.
   * An `authorization` wait is an approval of an exact action: the agent nodes that
   * depend on it directly (its authorised actions, each named by node, operation id, spec
   * digest and input digest). A human reviews the material of a satisfaction with
   * ReviewWait, approves its digest with ApprovalService.CreateApproval, and SatisfyWait
   * names that approval, which is verified (a current human allowed `approval.create` on
   * the run's work order, the material digest equal to what the server computes at
   * satisfaction, not expired) and consumed once, like the approvals of registry commands
   * and reconciliations.
   * </pre>
   */
  public static final class WaitServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<WaitServiceFutureStub> {
    private WaitServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WaitServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WaitServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWait returns one wait.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetWaitResponse> getWait(
        dev.praxis.aiws.engine.v1.GetWaitRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetWaitMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListWaits lists the waits of a run in definition order.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListWaitsResponse> listWaits(
        dev.praxis.aiws.engine.v1.ListWaitsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListWaitsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReviewWait returns the exact material a human approves to satisfy an
     * `authorization` wait with a payload, and its digest. It checks the payload and the
     * wait as SatisfyWait would (WAIT_NOT_OPEN, WAIT_EXPIRED, WAIT_PAYLOAD_INVALID, ...)
     * and writes nothing. Other waits take no approval (APPROVAL_NOT_APPLICABLE). Needs
     * `wait.read` on the run's work order.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ReviewWaitResponse> reviewWait(
        dev.praxis.aiws.engine.v1.ReviewWaitRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReviewWaitMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * SatisfyWait satisfies a pending wait with a payload; the node completes with the
     * payload as its result. Needs `wait.satisfy` on the run's work order (for a wait
     * that declares a purpose, a grant covering that purpose). `authorization` waits need
     * a verified human and `approval_id`: without it FAILED_PRECONDITION /
     * AUTHORIZATION_APPROVAL_REQUIRED; an approval that is missing, expired, consumed,
     * given for other material (APPROVAL_MISMATCH: another payload, an authorised node
     * that changed, new epochs) or for another purpose is refused and consumes nothing.
     * `human_input` and `timer` waits take no approval (APPROVAL_NOT_APPLICABLE). A
     * repeated request_id with the same payload and approval returns the wait with
     * `replayed = true`, consuming nothing again.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.SatisfyWaitResponse> satisfyWait(
        dev.praxis.aiws.engine.v1.SatisfyWaitRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSatisfyWaitMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_GET_WAIT = 0;
  private static final int METHODID_LIST_WAITS = 1;
  private static final int METHODID_REVIEW_WAIT = 2;
  private static final int METHODID_SATISFY_WAIT = 3;

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
        case METHODID_GET_WAIT:
          serviceImpl.getWait((dev.praxis.aiws.engine.v1.GetWaitRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWaitResponse>) responseObserver);
          break;
        case METHODID_LIST_WAITS:
          serviceImpl.listWaits((dev.praxis.aiws.engine.v1.ListWaitsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListWaitsResponse>) responseObserver);
          break;
        case METHODID_REVIEW_WAIT:
          serviceImpl.reviewWait((dev.praxis.aiws.engine.v1.ReviewWaitRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewWaitResponse>) responseObserver);
          break;
        case METHODID_SATISFY_WAIT:
          serviceImpl.satisfyWait((dev.praxis.aiws.engine.v1.SatisfyWaitRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.SatisfyWaitResponse>) responseObserver);
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
          getGetWaitMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetWaitRequest,
              dev.praxis.aiws.engine.v1.GetWaitResponse>(
                service, METHODID_GET_WAIT)))
        .addMethod(
          getListWaitsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListWaitsRequest,
              dev.praxis.aiws.engine.v1.ListWaitsResponse>(
                service, METHODID_LIST_WAITS)))
        .addMethod(
          getReviewWaitMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ReviewWaitRequest,
              dev.praxis.aiws.engine.v1.ReviewWaitResponse>(
                service, METHODID_REVIEW_WAIT)))
        .addMethod(
          getSatisfyWaitMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.SatisfyWaitRequest,
              dev.praxis.aiws.engine.v1.SatisfyWaitResponse>(
                service, METHODID_SATISFY_WAIT)))
        .build();
  }

  private static abstract class WaitServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    WaitServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.WaitOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("WaitService");
    }
  }

  private static final class WaitServiceFileDescriptorSupplier
      extends WaitServiceBaseDescriptorSupplier {
    WaitServiceFileDescriptorSupplier() {}
  }

  private static final class WaitServiceMethodDescriptorSupplier
      extends WaitServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    WaitServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (WaitServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new WaitServiceFileDescriptorSupplier())
              .addMethod(getGetWaitMethod())
              .addMethod(getListWaitsMethod())
              .addMethod(getReviewWaitMethod())
              .addMethod(getSatisfyWaitMethod())
              .build();
        }
      }
    }
    return result;
  }
}
