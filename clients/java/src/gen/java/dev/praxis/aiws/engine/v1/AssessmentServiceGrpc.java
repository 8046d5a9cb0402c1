package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * AssessmentService records verification and acceptance of a completed run's
 * deliverable against its contract's criteria. Each assessment is bound to the digest
 * of its subject (the run's result, definition and contract, and for governed runs the
 * head of their ref); when the subject changes, the assessment stops being current. A
 * run is accepted only while its current assessments say so.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class AssessmentServiceGrpc {

  private AssessmentServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.AssessmentService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.RecordAssessmentRequest,
      dev.praxis.aiws.engine.v1.RecordAssessmentResponse> getRecordAssessmentMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RecordAssessment",
      requestType = dev.praxis.aiws.engine.v1.RecordAssessmentRequest.class,
      responseType = dev.praxis.aiws.engine.v1.RecordAssessmentResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.RecordAssessmentRequest,
      dev.praxis.aiws.engine.v1.RecordAssessmentResponse> getRecordAssessmentMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.RecordAssessmentRequest, dev.praxis.aiws.engine.v1.RecordAssessmentResponse> getRecordAssessmentMethod;
    if ((getRecordAssessmentMethod = AssessmentServiceGrpc.getRecordAssessmentMethod) == null) {
      synchronized (AssessmentServiceGrpc.class) {
        if ((getRecordAssessmentMethod = AssessmentServiceGrpc.getRecordAssessmentMethod) == null) {
          AssessmentServiceGrpc.getRecordAssessmentMethod = getRecordAssessmentMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.RecordAssessmentRequest, dev.praxis.aiws.engine.v1.RecordAssessmentResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RecordAssessment"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.RecordAssessmentRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.RecordAssessmentResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AssessmentServiceMethodDescriptorSupplier("RecordAssessment"))
              .build();
        }
      }
    }
    return getRecordAssessmentMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListAssessmentsRequest,
      dev.praxis.aiws.engine.v1.ListAssessmentsResponse> getListAssessmentsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListAssessments",
      requestType = dev.praxis.aiws.engine.v1.ListAssessmentsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListAssessmentsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListAssessmentsRequest,
      dev.praxis.aiws.engine.v1.ListAssessmentsResponse> getListAssessmentsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListAssessmentsRequest, dev.praxis.aiws.engine.v1.ListAssessmentsResponse> getListAssessmentsMethod;
    if ((getListAssessmentsMethod = AssessmentServiceGrpc.getListAssessmentsMethod) == null) {
      synchronized (AssessmentServiceGrpc.class) {
        if ((getListAssessmentsMethod = AssessmentServiceGrpc.getListAssessmentsMethod) == null) {
          AssessmentServiceGrpc.getListAssessmentsMethod = getListAssessmentsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListAssessmentsRequest, dev.praxis.aiws.engine.v1.ListAssessmentsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListAssessments"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListAssessmentsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListAssessmentsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AssessmentServiceMethodDescriptorSupplier("ListAssessments"))
              .build();
        }
      }
    }
    return getListAssessmentsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetAcceptanceRequest,
      dev.praxis.aiws.engine.v1.GetAcceptanceResponse> getGetAcceptanceMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetAcceptance",
      requestType = dev.praxis.aiws.engine.v1.GetAcceptanceRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetAcceptanceResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetAcceptanceRequest,
      dev.praxis.aiws.engine.v1.GetAcceptanceResponse> getGetAcceptanceMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetAcceptanceRequest, dev.praxis.aiws.engine.v1.GetAcceptanceResponse> getGetAcceptanceMethod;
    if ((getGetAcceptanceMethod = AssessmentServiceGrpc.getGetAcceptanceMethod) == null) {
      synchronized (AssessmentServiceGrpc.class) {
        if ((getGetAcceptanceMethod = AssessmentServiceGrpc.getGetAcceptanceMethod) == null) {
          AssessmentServiceGrpc.getGetAcceptanceMethod = getGetAcceptanceMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetAcceptanceRequest, dev.praxis.aiws.engine.v1.GetAcceptanceResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetAcceptance"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetAcceptanceRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetAcceptanceResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AssessmentServiceMethodDescriptorSupplier("GetAcceptance"))
              .build();
        }
      }
    }
    return getGetAcceptanceMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static AssessmentServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceStub>() {
        @java.lang.Override
        public AssessmentServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AssessmentServiceStub(channel, callOptions);
        }
      };
    return AssessmentServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static AssessmentServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceBlockingV2Stub>() {
        @java.lang.Override
        public AssessmentServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AssessmentServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return AssessmentServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static AssessmentServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceBlockingStub>() {
        @java.lang.Override
        public AssessmentServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AssessmentServiceBlockingStub(channel, callOptions);
        }
      };
    return AssessmentServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static AssessmentServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AssessmentServiceFutureStub>() {
        @java.lang.Override
        public AssessmentServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AssessmentServiceFutureStub(channel, callOptions);
        }
      };
    return AssessmentServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * AssessmentService records verification and acceptance of a completed run's
   * deliverable against its contract's criteria. Each assessment is bound to the digest
   * of its subject (the run's result, definition and contract, and for governed runs the
   * head of their ref); when the subject changes, the assessment stops being current. A
   * run is accepted only while its current assessments say so.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * RecordAssessment records an assessment of a completed run. The caller passes the
     * subject digest it assessed (from GetAcceptance); a different current subject fails
     * with SUBJECT_CHANGED. Acceptance needs a verified human. A repeated request_id with
     * the same request returns the original assessment with `replayed = true`.
     * </pre>
     */
    default void recordAssessment(dev.praxis.aiws.engine.v1.RecordAssessmentRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.RecordAssessmentResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRecordAssessmentMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListAssessments lists a run's assessments, oldest first, each marked current or not.
     * </pre>
     */
    default void listAssessments(dev.praxis.aiws.engine.v1.ListAssessmentsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListAssessmentsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListAssessmentsMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetAcceptance returns the run's current subject digest and whether its current
     * assessments accept it.
     * </pre>
     */
    default void getAcceptance(dev.praxis.aiws.engine.v1.GetAcceptanceRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetAcceptanceResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetAcceptanceMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service AssessmentService.
   * <pre>
   * AssessmentService records verification and acceptance of a completed run's
   * deliverable against its contract's criteria. Each assessment is bound to the digest
   * of its subject (the run's result, definition and contract, and for governed runs the
   * head of their ref); when the subject changes, the assessment stops being current. A
   * run is accepted only while its current assessments say so.
   * </pre>
   */
  public static abstract class AssessmentServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return AssessmentServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service AssessmentService.
   * <pre>
   * AssessmentService records verification and acceptance of a completed run's
   * deliverable against its contract's criteria. Each assessment is bound to the digest
   * of its subject (the run's result, definition and contract, and for governed runs the
   * head of their ref); when the subject changes, the assessment stops being current. A
   * run is accepted only while its current assessments say so.
   * </pre>
   */
  public static final class AssessmentServiceStub
      extends io.grpc.stub.AbstractAsyncStub<AssessmentServiceStub> {
    private AssessmentServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AssessmentServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AssessmentServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * RecordAssessment records an assessment of a completed run. The caller passes the
     * subject digest it assessed (from GetAcceptance); a different current subject fails
     * with SUBJECT_CHANGED. Acceptance needs a verified human. A repeated request_id with
     * the same request returns the original assessment with `replayed = true`.
     * </pre>
     */
    public void recordAssessment(dev.praxis.aiws.engine.v1.RecordAssessmentRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.RecordAssessmentResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRecordAssessmentMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListAssessments lists a run's assessments, oldest first, each marked current or not.
     * </pre>
     */
    public void listAssessments(dev.praxis.aiws.engine.v1.ListAssessmentsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListAssessmentsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListAssessmentsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetAcceptance returns the run's current subject digest and whether its current
     * assessments accept it.
     * </pre>
     */
    public void getAcceptance(dev.praxis.aiws.engine.v1.GetAcceptanceRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetAcceptanceResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetAcceptanceMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service AssessmentService.
   * <pre>
   * AssessmentService records verification and acceptance of a completed run's
   * deliverable against its contract's criteria. Each assessment is bound to the digest
   * of its subject (the run's result, definition and contract, and for governed runs the
   * head of their ref); when the subject changes, the assessment stops being current. A
   * run is accepted only while its current assessments say so.
   * </pre>
   */
  public static final class AssessmentServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<AssessmentServiceBlockingV2Stub> {
    private AssessmentServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AssessmentServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AssessmentServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * RecordAssessment records an assessment of a completed run. The caller passes the
     * subject digest it assessed (from GetAcceptance); a different current subject fails
     * with SUBJECT_CHANGED. Acceptance needs a verified human. A repeated request_id with
     * the same request returns the original assessment with `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.RecordAssessmentResponse recordAssessment(dev.praxis.aiws.engine.v1.RecordAssessmentRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRecordAssessmentMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListAssessments lists a run's assessments, oldest first, each marked current or not.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListAssessmentsResponse listAssessments(dev.praxis.aiws.engine.v1.ListAssessmentsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListAssessmentsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetAcceptance returns the run's current subject digest and whether its current
     * assessments accept it.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetAcceptanceResponse getAcceptance(dev.praxis.aiws.engine.v1.GetAcceptanceRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetAcceptanceMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service AssessmentService.
   * <pre>
   * AssessmentService records verification and acceptance of a completed run's
   * deliverable against its contract's criteria. Each assessment is bound to the digest
   * of its subject (the run's result, definition and contract, and for governed runs the
   * head of their ref); when the subject changes, the assessment stops being current. A
   * run is accepted only while its current assessments say so.
   * </pre>
   */
  public static final class AssessmentServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<AssessmentServiceBlockingStub> {
    private AssessmentServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AssessmentServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AssessmentServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * RecordAssessment records an assessment of a completed run. The caller passes the
     * subject digest it assessed (from GetAcceptance); a different current subject fails
     * with SUBJECT_CHANGED. Acceptance needs a verified human. A repeated request_id with
     * the same request returns the original assessment with `replayed = true`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.RecordAssessmentResponse recordAssessment(dev.praxis.aiws.engine.v1.RecordAssessmentRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRecordAssessmentMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListAssessments lists a run's assessments, oldest first, each marked current or not.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListAssessmentsResponse listAssessments(dev.praxis.aiws.engine.v1.ListAssessmentsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListAssessmentsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetAcceptance returns the run's current subject digest and whether its current
     * assessments accept it.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetAcceptanceResponse getAcceptance(dev.praxis.aiws.engine.v1.GetAcceptanceRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetAcceptanceMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service AssessmentService.
   * <pre>
   * AssessmentService records verification and acceptance of a completed run's
   * deliverable against its contract's criteria. Each assessment is bound to the digest
   * of its subject (the run's result, definition and contract, and for governed runs the
   * head of their ref); when the subject changes, the assessment stops being current. A
   * run is accepted only while its current assessments say so.
   * </pre>
   */
  public static final class AssessmentServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<AssessmentServiceFutureStub> {
    private AssessmentServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AssessmentServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AssessmentServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * RecordAssessment records an assessment of a completed run. The caller passes the
     * subject digest it assessed (from GetAcceptance); a different current subject fails
     * with SUBJECT_CHANGED. Acceptance needs a verified human. A repeated request_id with
     * the same request returns the original assessment with `replayed = true`.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.RecordAssessmentResponse> recordAssessment(
        dev.praxis.aiws.engine.v1.RecordAssessmentRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRecordAssessmentMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListAssessments lists a run's assessments, oldest first, each marked current or not.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListAssessmentsResponse> listAssessments(
        dev.praxis.aiws.engine.v1.ListAssessmentsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListAssessmentsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetAcceptance returns the run's current subject digest and whether its current
     * assessments accept it.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetAcceptanceResponse> getAcceptance(
        dev.praxis.aiws.engine.v1.GetAcceptanceRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetAcceptanceMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_RECORD_ASSESSMENT = 0;
  private static final int METHODID_LIST_ASSESSMENTS = 1;
  private static final int METHODID_GET_ACCEPTANCE = 2;

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
        case METHODID_RECORD_ASSESSMENT:
          serviceImpl.recordAssessment((dev.praxis.aiws.engine.v1.RecordAssessmentRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.RecordAssessmentResponse>) responseObserver);
          break;
        case METHODID_LIST_ASSESSMENTS:
          serviceImpl.listAssessments((dev.praxis.aiws.engine.v1.ListAssessmentsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListAssessmentsResponse>) responseObserver);
          break;
        case METHODID_GET_ACCEPTANCE:
          serviceImpl.getAcceptance((dev.praxis.aiws.engine.v1.GetAcceptanceRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetAcceptanceResponse>) responseObserver);
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
          getRecordAssessmentMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.RecordAssessmentRequest,
              dev.praxis.aiws.engine.v1.RecordAssessmentResponse>(
                service, METHODID_RECORD_ASSESSMENT)))
        .addMethod(
          getListAssessmentsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListAssessmentsRequest,
              dev.praxis.aiws.engine.v1.ListAssessmentsResponse>(
                service, METHODID_LIST_ASSESSMENTS)))
        .addMethod(
          getGetAcceptanceMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetAcceptanceRequest,
              dev.praxis.aiws.engine.v1.GetAcceptanceResponse>(
                service, METHODID_GET_ACCEPTANCE)))
        .build();
  }

  private static abstract class AssessmentServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    AssessmentServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.AssessmentOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("AssessmentService");
    }
  }

  private static final class AssessmentServiceFileDescriptorSupplier
      extends AssessmentServiceBaseDescriptorSupplier {
    AssessmentServiceFileDescriptorSupplier() {}
  }

  private static final class AssessmentServiceMethodDescriptorSupplier
      extends AssessmentServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    AssessmentServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (AssessmentServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new AssessmentServiceFileDescriptorSupplier())
              .addMethod(getRecordAssessmentMethod())
              .addMethod(getListAssessmentsMethod())
              .addMethod(getGetAcceptanceMethod())
              .build();
        }
      }
    }
    return result;
  }
}
