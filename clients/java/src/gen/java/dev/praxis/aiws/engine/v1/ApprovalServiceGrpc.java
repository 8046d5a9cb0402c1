package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * ApprovalService records human decisions bound to exact review material. An approval
 * is single use: the command that consumes it records the consumption on the
 * approval's proof, so the same human decision cannot be replayed under another id.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class ApprovalServiceGrpc {

  private ApprovalServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.ApprovalService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateApprovalRequest,
      dev.praxis.aiws.engine.v1.CreateApprovalResponse> getCreateApprovalMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateApproval",
      requestType = dev.praxis.aiws.engine.v1.CreateApprovalRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CreateApprovalResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateApprovalRequest,
      dev.praxis.aiws.engine.v1.CreateApprovalResponse> getCreateApprovalMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateApprovalRequest, dev.praxis.aiws.engine.v1.CreateApprovalResponse> getCreateApprovalMethod;
    if ((getCreateApprovalMethod = ApprovalServiceGrpc.getCreateApprovalMethod) == null) {
      synchronized (ApprovalServiceGrpc.class) {
        if ((getCreateApprovalMethod = ApprovalServiceGrpc.getCreateApprovalMethod) == null) {
          ApprovalServiceGrpc.getCreateApprovalMethod = getCreateApprovalMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CreateApprovalRequest, dev.praxis.aiws.engine.v1.CreateApprovalResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateApproval"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateApprovalRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateApprovalResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ApprovalServiceMethodDescriptorSupplier("CreateApproval"))
              .build();
        }
      }
    }
    return getCreateApprovalMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetApprovalRequest,
      dev.praxis.aiws.engine.v1.GetApprovalResponse> getGetApprovalMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetApproval",
      requestType = dev.praxis.aiws.engine.v1.GetApprovalRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetApprovalResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetApprovalRequest,
      dev.praxis.aiws.engine.v1.GetApprovalResponse> getGetApprovalMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetApprovalRequest, dev.praxis.aiws.engine.v1.GetApprovalResponse> getGetApprovalMethod;
    if ((getGetApprovalMethod = ApprovalServiceGrpc.getGetApprovalMethod) == null) {
      synchronized (ApprovalServiceGrpc.class) {
        if ((getGetApprovalMethod = ApprovalServiceGrpc.getGetApprovalMethod) == null) {
          ApprovalServiceGrpc.getGetApprovalMethod = getGetApprovalMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetApprovalRequest, dev.praxis.aiws.engine.v1.GetApprovalResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetApproval"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetApprovalRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetApprovalResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ApprovalServiceMethodDescriptorSupplier("GetApproval"))
              .build();
        }
      }
    }
    return getGetApprovalMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ApprovalServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceStub>() {
        @java.lang.Override
        public ApprovalServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ApprovalServiceStub(channel, callOptions);
        }
      };
    return ApprovalServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static ApprovalServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceBlockingV2Stub>() {
        @java.lang.Override
        public ApprovalServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ApprovalServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return ApprovalServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ApprovalServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceBlockingStub>() {
        @java.lang.Override
        public ApprovalServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ApprovalServiceBlockingStub(channel, callOptions);
        }
      };
    return ApprovalServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ApprovalServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ApprovalServiceFutureStub>() {
        @java.lang.Override
        public ApprovalServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ApprovalServiceFutureStub(channel, callOptions);
        }
      };
    return ApprovalServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * ApprovalService records human decisions bound to exact review material. An approval
   * is single use: the command that consumes it records the consumption on the
   * approval's proof, so the same human decision cannot be replayed under another id.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * CreateApproval records the authenticated human's approval of the material whose
     * digest `RegistryService.Review` returned. Only HUMAN principals may approve.
     * Idempotent by approval id: the same id with the same content returns the existing
     * approval; with different content it fails with APPROVAL_ALREADY_EXISTS. The material
     * may come from RegistryService.Review, ReconciliationService.ReviewReconciliation or
     * WaitService.ReviewWait. Approving material again while an earlier approval of it is
     * unused is allowed, and is how an approval about to expire is renewed (see
     * `INBOX_ITEM_KIND_APPROVAL_EXPIRING`): the same approver's approvals of the same
     * material share one proof, so using either uses both.
     * </pre>
     */
    default void createApproval(dev.praxis.aiws.engine.v1.CreateApprovalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateApprovalResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateApprovalMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetApproval returns an approval and whether it is still usable.
     * </pre>
     */
    default void getApproval(dev.praxis.aiws.engine.v1.GetApprovalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetApprovalResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetApprovalMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service ApprovalService.
   * <pre>
   * ApprovalService records human decisions bound to exact review material. An approval
   * is single use: the command that consumes it records the consumption on the
   * approval's proof, so the same human decision cannot be replayed under another id.
   * </pre>
   */
  public static abstract class ApprovalServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return ApprovalServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service ApprovalService.
   * <pre>
   * ApprovalService records human decisions bound to exact review material. An approval
   * is single use: the command that consumes it records the consumption on the
   * approval's proof, so the same human decision cannot be replayed under another id.
   * </pre>
   */
  public static final class ApprovalServiceStub
      extends io.grpc.stub.AbstractAsyncStub<ApprovalServiceStub> {
    private ApprovalServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ApprovalServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ApprovalServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateApproval records the authenticated human's approval of the material whose
     * digest `RegistryService.Review` returned. Only HUMAN principals may approve.
     * Idempotent by approval id: the same id with the same content returns the existing
     * approval; with different content it fails with APPROVAL_ALREADY_EXISTS. The material
     * may come from RegistryService.Review, ReconciliationService.ReviewReconciliation or
     * WaitService.ReviewWait. Approving material again while an earlier approval of it is
     * unused is allowed, and is how an approval about to expire is renewed (see
     * `INBOX_ITEM_KIND_APPROVAL_EXPIRING`): the same approver's approvals of the same
     * material share one proof, so using either uses both.
     * </pre>
     */
    public void createApproval(dev.praxis.aiws.engine.v1.CreateApprovalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateApprovalResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateApprovalMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetApproval returns an approval and whether it is still usable.
     * </pre>
     */
    public void getApproval(dev.praxis.aiws.engine.v1.GetApprovalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetApprovalResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetApprovalMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service ApprovalService.
   * <pre>
   * ApprovalService records human decisions bound to exact review material. An approval
   * is single use: the command that consumes it records the consumption on the
   * approval's proof, so the same human decision cannot be replayed under another id.
   * </pre>
   */
  public static final class ApprovalServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<ApprovalServiceBlockingV2Stub> {
    private ApprovalServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ApprovalServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ApprovalServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateApproval records the authenticated human's approval of the material whose
     * digest `RegistryService.Review` returned. Only HUMAN principals may approve.
     * Idempotent by approval id: the same id with the same content returns the existing
     * approval; with different content it fails with APPROVAL_ALREADY_EXISTS. The material
     * may come from RegistryService.Review, ReconciliationService.ReviewReconciliation or
     * WaitService.ReviewWait. Approving material again while an earlier approval of it is
     * unused is allowed, and is how an approval about to expire is renewed (see
     * `INBOX_ITEM_KIND_APPROVAL_EXPIRING`): the same approver's approvals of the same
     * material share one proof, so using either uses both.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateApprovalResponse createApproval(dev.praxis.aiws.engine.v1.CreateApprovalRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateApprovalMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetApproval returns an approval and whether it is still usable.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetApprovalResponse getApproval(dev.praxis.aiws.engine.v1.GetApprovalRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetApprovalMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service ApprovalService.
   * <pre>
   * ApprovalService records human decisions bound to exact review material. An approval
   * is single use: the command that consumes it records the consumption on the
   * approval's proof, so the same human decision cannot be replayed under another id.
   * </pre>
   */
  public static final class ApprovalServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<ApprovalServiceBlockingStub> {
    private ApprovalServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ApprovalServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ApprovalServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateApproval records the authenticated human's approval of the material whose
     * digest `RegistryService.Review` returned. Only HUMAN principals may approve.
     * Idempotent by approval id: the same id with the same content returns the existing
     * approval; with different content it fails with APPROVAL_ALREADY_EXISTS. The material
     * may come from RegistryService.Review, ReconciliationService.ReviewReconciliation or
     * WaitService.ReviewWait. Approving material again while an earlier approval of it is
     * unused is allowed, and is how an approval about to expire is renewed (see
     * `INBOX_ITEM_KIND_APPROVAL_EXPIRING`): the same approver's approvals of the same
     * material share one proof, so using either uses both.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateApprovalResponse createApproval(dev.praxis.aiws.engine.v1.CreateApprovalRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateApprovalMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetApproval returns an approval and whether it is still usable.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetApprovalResponse getApproval(dev.praxis.aiws.engine.v1.GetApprovalRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetApprovalMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service ApprovalService.
   * <pre>
   * ApprovalService records human decisions bound to exact review material. An approval
   * is single use: the command that consumes it records the consumption on the
   * approval's proof, so the same human decision cannot be replayed under another id.
   * </pre>
   */
  public static final class ApprovalServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<ApprovalServiceFutureStub> {
    private ApprovalServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ApprovalServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ApprovalServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateApproval records the authenticated human's approval of the material whose
     * digest `RegistryService.Review` returned. Only HUMAN principals may approve.
     * Idempotent by approval id: the same id with the same content returns the existing
     * approval; with different content it fails with APPROVAL_ALREADY_EXISTS. The material
     * may come from RegistryService.Review, ReconciliationService.ReviewReconciliation or
     * WaitService.ReviewWait. Approving material again while an earlier approval of it is
     * unused is allowed, and is how an approval about to expire is renewed (see
     * `INBOX_ITEM_KIND_APPROVAL_EXPIRING`): the same approver's approvals of the same
     * material share one proof, so using either uses both.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CreateApprovalResponse> createApproval(
        dev.praxis.aiws.engine.v1.CreateApprovalRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateApprovalMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetApproval returns an approval and whether it is still usable.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetApprovalResponse> getApproval(
        dev.praxis.aiws.engine.v1.GetApprovalRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetApprovalMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_APPROVAL = 0;
  private static final int METHODID_GET_APPROVAL = 1;

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
        case METHODID_CREATE_APPROVAL:
          serviceImpl.createApproval((dev.praxis.aiws.engine.v1.CreateApprovalRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateApprovalResponse>) responseObserver);
          break;
        case METHODID_GET_APPROVAL:
          serviceImpl.getApproval((dev.praxis.aiws.engine.v1.GetApprovalRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetApprovalResponse>) responseObserver);
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
          getCreateApprovalMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CreateApprovalRequest,
              dev.praxis.aiws.engine.v1.CreateApprovalResponse>(
                service, METHODID_CREATE_APPROVAL)))
        .addMethod(
          getGetApprovalMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetApprovalRequest,
              dev.praxis.aiws.engine.v1.GetApprovalResponse>(
                service, METHODID_GET_APPROVAL)))
        .build();
  }

  private static abstract class ApprovalServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ApprovalServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.ApprovalOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("ApprovalService");
    }
  }

  private static final class ApprovalServiceFileDescriptorSupplier
      extends ApprovalServiceBaseDescriptorSupplier {
    ApprovalServiceFileDescriptorSupplier() {}
  }

  private static final class ApprovalServiceMethodDescriptorSupplier
      extends ApprovalServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    ApprovalServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (ApprovalServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ApprovalServiceFileDescriptorSupplier())
              .addMethod(getCreateApprovalMethod())
              .addMethod(getGetApprovalMethod())
              .build();
        }
      }
    }
    return result;
  }
}
