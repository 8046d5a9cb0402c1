package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * RegistryService keeps the durable, governed lineage of workflow definitions. A
 * definition changes only through commands: REGISTER creates revision 1, agents PROPOSE
 * candidates against an exact base revision, and a verified human ACTIVATEs (a
 * compare-and-swap on the head) or REJECTs them against an approval of the exact review
 * material. Every command is one transaction and returns an idempotent receipt.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class RegistryServiceGrpc {

  private RegistryServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.RegistryService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewRequest,
      dev.praxis.aiws.engine.v1.ReviewResponse> getReviewMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Review",
      requestType = dev.praxis.aiws.engine.v1.ReviewRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ReviewResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewRequest,
      dev.praxis.aiws.engine.v1.ReviewResponse> getReviewMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewRequest, dev.praxis.aiws.engine.v1.ReviewResponse> getReviewMethod;
    if ((getReviewMethod = RegistryServiceGrpc.getReviewMethod) == null) {
      synchronized (RegistryServiceGrpc.class) {
        if ((getReviewMethod = RegistryServiceGrpc.getReviewMethod) == null) {
          RegistryServiceGrpc.getReviewMethod = getReviewMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ReviewRequest, dev.praxis.aiws.engine.v1.ReviewResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Review"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RegistryServiceMethodDescriptorSupplier("Review"))
              .build();
        }
      }
    }
    return getReviewMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ExecuteRequest,
      dev.praxis.aiws.engine.v1.ExecuteResponse> getExecuteMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Execute",
      requestType = dev.praxis.aiws.engine.v1.ExecuteRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ExecuteResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ExecuteRequest,
      dev.praxis.aiws.engine.v1.ExecuteResponse> getExecuteMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ExecuteRequest, dev.praxis.aiws.engine.v1.ExecuteResponse> getExecuteMethod;
    if ((getExecuteMethod = RegistryServiceGrpc.getExecuteMethod) == null) {
      synchronized (RegistryServiceGrpc.class) {
        if ((getExecuteMethod = RegistryServiceGrpc.getExecuteMethod) == null) {
          RegistryServiceGrpc.getExecuteMethod = getExecuteMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ExecuteRequest, dev.praxis.aiws.engine.v1.ExecuteResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Execute"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ExecuteRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ExecuteResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RegistryServiceMethodDescriptorSupplier("Execute"))
              .build();
        }
      }
    }
    return getExecuteMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetHeadRequest,
      dev.praxis.aiws.engine.v1.GetHeadResponse> getGetHeadMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetHead",
      requestType = dev.praxis.aiws.engine.v1.GetHeadRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetHeadResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetHeadRequest,
      dev.praxis.aiws.engine.v1.GetHeadResponse> getGetHeadMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetHeadRequest, dev.praxis.aiws.engine.v1.GetHeadResponse> getGetHeadMethod;
    if ((getGetHeadMethod = RegistryServiceGrpc.getGetHeadMethod) == null) {
      synchronized (RegistryServiceGrpc.class) {
        if ((getGetHeadMethod = RegistryServiceGrpc.getGetHeadMethod) == null) {
          RegistryServiceGrpc.getGetHeadMethod = getGetHeadMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetHeadRequest, dev.praxis.aiws.engine.v1.GetHeadResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetHead"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetHeadRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetHeadResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RegistryServiceMethodDescriptorSupplier("GetHead"))
              .build();
        }
      }
    }
    return getGetHeadMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetProposalRequest,
      dev.praxis.aiws.engine.v1.GetProposalResponse> getGetProposalMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetProposal",
      requestType = dev.praxis.aiws.engine.v1.GetProposalRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetProposalResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetProposalRequest,
      dev.praxis.aiws.engine.v1.GetProposalResponse> getGetProposalMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetProposalRequest, dev.praxis.aiws.engine.v1.GetProposalResponse> getGetProposalMethod;
    if ((getGetProposalMethod = RegistryServiceGrpc.getGetProposalMethod) == null) {
      synchronized (RegistryServiceGrpc.class) {
        if ((getGetProposalMethod = RegistryServiceGrpc.getGetProposalMethod) == null) {
          RegistryServiceGrpc.getGetProposalMethod = getGetProposalMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetProposalRequest, dev.praxis.aiws.engine.v1.GetProposalResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetProposal"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetProposalRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetProposalResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RegistryServiceMethodDescriptorSupplier("GetProposal"))
              .build();
        }
      }
    }
    return getGetProposalMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHistoryRequest,
      dev.praxis.aiws.engine.v1.ListHistoryResponse> getListHistoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListHistory",
      requestType = dev.praxis.aiws.engine.v1.ListHistoryRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListHistoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHistoryRequest,
      dev.praxis.aiws.engine.v1.ListHistoryResponse> getListHistoryMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHistoryRequest, dev.praxis.aiws.engine.v1.ListHistoryResponse> getListHistoryMethod;
    if ((getListHistoryMethod = RegistryServiceGrpc.getListHistoryMethod) == null) {
      synchronized (RegistryServiceGrpc.class) {
        if ((getListHistoryMethod = RegistryServiceGrpc.getListHistoryMethod) == null) {
          RegistryServiceGrpc.getListHistoryMethod = getListHistoryMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListHistoryRequest, dev.praxis.aiws.engine.v1.ListHistoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListHistory"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListHistoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListHistoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RegistryServiceMethodDescriptorSupplier("ListHistory"))
              .build();
        }
      }
    }
    return getListHistoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetEpochsRequest,
      dev.praxis.aiws.engine.v1.GetEpochsResponse> getGetEpochsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetEpochs",
      requestType = dev.praxis.aiws.engine.v1.GetEpochsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetEpochsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetEpochsRequest,
      dev.praxis.aiws.engine.v1.GetEpochsResponse> getGetEpochsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetEpochsRequest, dev.praxis.aiws.engine.v1.GetEpochsResponse> getGetEpochsMethod;
    if ((getGetEpochsMethod = RegistryServiceGrpc.getGetEpochsMethod) == null) {
      synchronized (RegistryServiceGrpc.class) {
        if ((getGetEpochsMethod = RegistryServiceGrpc.getGetEpochsMethod) == null) {
          RegistryServiceGrpc.getGetEpochsMethod = getGetEpochsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetEpochsRequest, dev.praxis.aiws.engine.v1.GetEpochsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetEpochs"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetEpochsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetEpochsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RegistryServiceMethodDescriptorSupplier("GetEpochs"))
              .build();
        }
      }
    }
    return getGetEpochsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRefsRequest,
      dev.praxis.aiws.engine.v1.ListRefsResponse> getListRefsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListRefs",
      requestType = dev.praxis.aiws.engine.v1.ListRefsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListRefsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRefsRequest,
      dev.praxis.aiws.engine.v1.ListRefsResponse> getListRefsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListRefsRequest, dev.praxis.aiws.engine.v1.ListRefsResponse> getListRefsMethod;
    if ((getListRefsMethod = RegistryServiceGrpc.getListRefsMethod) == null) {
      synchronized (RegistryServiceGrpc.class) {
        if ((getListRefsMethod = RegistryServiceGrpc.getListRefsMethod) == null) {
          RegistryServiceGrpc.getListRefsMethod = getListRefsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListRefsRequest, dev.praxis.aiws.engine.v1.ListRefsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListRefs"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListRefsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListRefsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RegistryServiceMethodDescriptorSupplier("ListRefs"))
              .build();
        }
      }
    }
    return getListRefsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static RegistryServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RegistryServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RegistryServiceStub>() {
        @java.lang.Override
        public RegistryServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RegistryServiceStub(channel, callOptions);
        }
      };
    return RegistryServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static RegistryServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RegistryServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RegistryServiceBlockingV2Stub>() {
        @java.lang.Override
        public RegistryServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RegistryServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return RegistryServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static RegistryServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RegistryServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RegistryServiceBlockingStub>() {
        @java.lang.Override
        public RegistryServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RegistryServiceBlockingStub(channel, callOptions);
        }
      };
    return RegistryServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static RegistryServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RegistryServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RegistryServiceFutureStub>() {
        @java.lang.Override
        public RegistryServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RegistryServiceFutureStub(channel, callOptions);
        }
      };
    return RegistryServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * RegistryService keeps the durable, governed lineage of workflow definitions. A
   * definition changes only through commands: REGISTER creates revision 1, agents PROPOSE
   * candidates against an exact base revision, and a verified human ACTIVATEs (a
   * compare-and-swap on the head) or REJECTs them against an approval of the exact review
   * material. Every command is one transaction and returns an idempotent receipt.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * Review returns the exact material a human must see before approving a command,
     * and its digest. It writes nothing. The command is checked as Execute would check it
     * (ref, proposal, base revision), except for approvals.
     * </pre>
     */
    default void review(dev.praxis.aiws.engine.v1.ReviewRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReviewMethod(), responseObserver);
    }

    /**
     * <pre>
     * Execute authorizes and commits one command. Retrying with the same principal,
     * request_id and command returns the original receipt with `replayed = true` and
     * changes nothing; a different command under the same request_id fails with
     * REQUEST_ID_REUSED. Retries are still authorized and checked against epochs, holds
     * and the clock.
     * </pre>
     */
    default void execute(dev.praxis.aiws.engine.v1.ExecuteRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ExecuteResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getExecuteMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetHead returns the current revision of a ref.
     * </pre>
     */
    default void getHead(dev.praxis.aiws.engine.v1.GetHeadRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetHeadResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetHeadMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetProposal returns one proposal with its material and state.
     * </pre>
     */
    default void getProposal(dev.praxis.aiws.engine.v1.GetProposalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetProposalResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetProposalMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListHistory pages through the immutable events of one ref, oldest first.
     * </pre>
     */
    default void listHistory(dev.praxis.aiws.engine.v1.ListHistoryRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHistoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListHistoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetEpochs returns the installation id and the work order's current epochs, which
     * callers pass back on Review and Execute.
     * </pre>
     */
    default void getEpochs(dev.praxis.aiws.engine.v1.GetEpochsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetEpochsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetEpochsMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListRefs pages through the heads of registered refs, ordered by work order then
     * run id, optionally of one work order. It needs `registry.read` on the work order
     * asked for (on every work order, `*`, when none is named).
     * </pre>
     */
    default void listRefs(dev.praxis.aiws.engine.v1.ListRefsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRefsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListRefsMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service RegistryService.
   * <pre>
   * RegistryService keeps the durable, governed lineage of workflow definitions. A
   * definition changes only through commands: REGISTER creates revision 1, agents PROPOSE
   * candidates against an exact base revision, and a verified human ACTIVATEs (a
   * compare-and-swap on the head) or REJECTs them against an approval of the exact review
   * material. Every command is one transaction and returns an idempotent receipt.
   * </pre>
   */
  public static abstract class RegistryServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return RegistryServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service RegistryService.
   * <pre>
   * RegistryService keeps the durable, governed lineage of workflow definitions. A
   * definition changes only through commands: REGISTER creates revision 1, agents PROPOSE
   * candidates against an exact base revision, and a verified human ACTIVATEs (a
   * compare-and-swap on the head) or REJECTs them against an approval of the exact review
   * material. Every command is one transaction and returns an idempotent receipt.
   * </pre>
   */
  public static final class RegistryServiceStub
      extends io.grpc.stub.AbstractAsyncStub<RegistryServiceStub> {
    private RegistryServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RegistryServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RegistryServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Review returns the exact material a human must see before approving a command,
     * and its digest. It writes nothing. The command is checked as Execute would check it
     * (ref, proposal, base revision), except for approvals.
     * </pre>
     */
    public void review(dev.praxis.aiws.engine.v1.ReviewRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReviewMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Execute authorizes and commits one command. Retrying with the same principal,
     * request_id and command returns the original receipt with `replayed = true` and
     * changes nothing; a different command under the same request_id fails with
     * REQUEST_ID_REUSED. Retries are still authorized and checked against epochs, holds
     * and the clock.
     * </pre>
     */
    public void execute(dev.praxis.aiws.engine.v1.ExecuteRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ExecuteResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getExecuteMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetHead returns the current revision of a ref.
     * </pre>
     */
    public void getHead(dev.praxis.aiws.engine.v1.GetHeadRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetHeadResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetHeadMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetProposal returns one proposal with its material and state.
     * </pre>
     */
    public void getProposal(dev.praxis.aiws.engine.v1.GetProposalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetProposalResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetProposalMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListHistory pages through the immutable events of one ref, oldest first.
     * </pre>
     */
    public void listHistory(dev.praxis.aiws.engine.v1.ListHistoryRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHistoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListHistoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetEpochs returns the installation id and the work order's current epochs, which
     * callers pass back on Review and Execute.
     * </pre>
     */
    public void getEpochs(dev.praxis.aiws.engine.v1.GetEpochsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetEpochsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetEpochsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListRefs pages through the heads of registered refs, ordered by work order then
     * run id, optionally of one work order. It needs `registry.read` on the work order
     * asked for (on every work order, `*`, when none is named).
     * </pre>
     */
    public void listRefs(dev.praxis.aiws.engine.v1.ListRefsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRefsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListRefsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service RegistryService.
   * <pre>
   * RegistryService keeps the durable, governed lineage of workflow definitions. A
   * definition changes only through commands: REGISTER creates revision 1, agents PROPOSE
   * candidates against an exact base revision, and a verified human ACTIVATEs (a
   * compare-and-swap on the head) or REJECTs them against an approval of the exact review
   * material. Every command is one transaction and returns an idempotent receipt.
   * </pre>
   */
  public static final class RegistryServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<RegistryServiceBlockingV2Stub> {
    private RegistryServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RegistryServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RegistryServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * Review returns the exact material a human must see before approving a command,
     * and its digest. It writes nothing. The command is checked as Execute would check it
     * (ref, proposal, base revision), except for approvals.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewResponse review(dev.praxis.aiws.engine.v1.ReviewRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReviewMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Execute authorizes and commits one command. Retrying with the same principal,
     * request_id and command returns the original receipt with `replayed = true` and
     * changes nothing; a different command under the same request_id fails with
     * REQUEST_ID_REUSED. Retries are still authorized and checked against epochs, holds
     * and the clock.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ExecuteResponse execute(dev.praxis.aiws.engine.v1.ExecuteRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getExecuteMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetHead returns the current revision of a ref.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetHeadResponse getHead(dev.praxis.aiws.engine.v1.GetHeadRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetHeadMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetProposal returns one proposal with its material and state.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetProposalResponse getProposal(dev.praxis.aiws.engine.v1.GetProposalRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetProposalMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListHistory pages through the immutable events of one ref, oldest first.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListHistoryResponse listHistory(dev.praxis.aiws.engine.v1.ListHistoryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListHistoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetEpochs returns the installation id and the work order's current epochs, which
     * callers pass back on Review and Execute.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetEpochsResponse getEpochs(dev.praxis.aiws.engine.v1.GetEpochsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetEpochsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListRefs pages through the heads of registered refs, ordered by work order then
     * run id, optionally of one work order. It needs `registry.read` on the work order
     * asked for (on every work order, `*`, when none is named).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListRefsResponse listRefs(dev.praxis.aiws.engine.v1.ListRefsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListRefsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service RegistryService.
   * <pre>
   * RegistryService keeps the durable, governed lineage of workflow definitions. A
   * definition changes only through commands: REGISTER creates revision 1, agents PROPOSE
   * candidates against an exact base revision, and a verified human ACTIVATEs (a
   * compare-and-swap on the head) or REJECTs them against an approval of the exact review
   * material. Every command is one transaction and returns an idempotent receipt.
   * </pre>
   */
  public static final class RegistryServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<RegistryServiceBlockingStub> {
    private RegistryServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RegistryServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RegistryServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Review returns the exact material a human must see before approving a command,
     * and its digest. It writes nothing. The command is checked as Execute would check it
     * (ref, proposal, base revision), except for approvals.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewResponse review(dev.praxis.aiws.engine.v1.ReviewRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReviewMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Execute authorizes and commits one command. Retrying with the same principal,
     * request_id and command returns the original receipt with `replayed = true` and
     * changes nothing; a different command under the same request_id fails with
     * REQUEST_ID_REUSED. Retries are still authorized and checked against epochs, holds
     * and the clock.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ExecuteResponse execute(dev.praxis.aiws.engine.v1.ExecuteRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getExecuteMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetHead returns the current revision of a ref.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetHeadResponse getHead(dev.praxis.aiws.engine.v1.GetHeadRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetHeadMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetProposal returns one proposal with its material and state.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetProposalResponse getProposal(dev.praxis.aiws.engine.v1.GetProposalRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetProposalMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListHistory pages through the immutable events of one ref, oldest first.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListHistoryResponse listHistory(dev.praxis.aiws.engine.v1.ListHistoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListHistoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetEpochs returns the installation id and the work order's current epochs, which
     * callers pass back on Review and Execute.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetEpochsResponse getEpochs(dev.praxis.aiws.engine.v1.GetEpochsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetEpochsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListRefs pages through the heads of registered refs, ordered by work order then
     * run id, optionally of one work order. It needs `registry.read` on the work order
     * asked for (on every work order, `*`, when none is named).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListRefsResponse listRefs(dev.praxis.aiws.engine.v1.ListRefsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListRefsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service RegistryService.
   * <pre>
   * RegistryService keeps the durable, governed lineage of workflow definitions. A
   * definition changes only through commands: REGISTER creates revision 1, agents PROPOSE
   * candidates against an exact base revision, and a verified human ACTIVATEs (a
   * compare-and-swap on the head) or REJECTs them against an approval of the exact review
   * material. Every command is one transaction and returns an idempotent receipt.
   * </pre>
   */
  public static final class RegistryServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<RegistryServiceFutureStub> {
    private RegistryServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RegistryServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RegistryServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Review returns the exact material a human must see before approving a command,
     * and its digest. It writes nothing. The command is checked as Execute would check it
     * (ref, proposal, base revision), except for approvals.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ReviewResponse> review(
        dev.praxis.aiws.engine.v1.ReviewRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReviewMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Execute authorizes and commits one command. Retrying with the same principal,
     * request_id and command returns the original receipt with `replayed = true` and
     * changes nothing; a different command under the same request_id fails with
     * REQUEST_ID_REUSED. Retries are still authorized and checked against epochs, holds
     * and the clock.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ExecuteResponse> execute(
        dev.praxis.aiws.engine.v1.ExecuteRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getExecuteMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetHead returns the current revision of a ref.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetHeadResponse> getHead(
        dev.praxis.aiws.engine.v1.GetHeadRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetHeadMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetProposal returns one proposal with its material and state.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetProposalResponse> getProposal(
        dev.praxis.aiws.engine.v1.GetProposalRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetProposalMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListHistory pages through the immutable events of one ref, oldest first.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListHistoryResponse> listHistory(
        dev.praxis.aiws.engine.v1.ListHistoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListHistoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetEpochs returns the installation id and the work order's current epochs, which
     * callers pass back on Review and Execute.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetEpochsResponse> getEpochs(
        dev.praxis.aiws.engine.v1.GetEpochsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetEpochsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListRefs pages through the heads of registered refs, ordered by work order then
     * run id, optionally of one work order. It needs `registry.read` on the work order
     * asked for (on every work order, `*`, when none is named).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListRefsResponse> listRefs(
        dev.praxis.aiws.engine.v1.ListRefsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListRefsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_REVIEW = 0;
  private static final int METHODID_EXECUTE = 1;
  private static final int METHODID_GET_HEAD = 2;
  private static final int METHODID_GET_PROPOSAL = 3;
  private static final int METHODID_LIST_HISTORY = 4;
  private static final int METHODID_GET_EPOCHS = 5;
  private static final int METHODID_LIST_REFS = 6;

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
        case METHODID_REVIEW:
          serviceImpl.review((dev.praxis.aiws.engine.v1.ReviewRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewResponse>) responseObserver);
          break;
        case METHODID_EXECUTE:
          serviceImpl.execute((dev.praxis.aiws.engine.v1.ExecuteRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ExecuteResponse>) responseObserver);
          break;
        case METHODID_GET_HEAD:
          serviceImpl.getHead((dev.praxis.aiws.engine.v1.GetHeadRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetHeadResponse>) responseObserver);
          break;
        case METHODID_GET_PROPOSAL:
          serviceImpl.getProposal((dev.praxis.aiws.engine.v1.GetProposalRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetProposalResponse>) responseObserver);
          break;
        case METHODID_LIST_HISTORY:
          serviceImpl.listHistory((dev.praxis.aiws.engine.v1.ListHistoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHistoryResponse>) responseObserver);
          break;
        case METHODID_GET_EPOCHS:
          serviceImpl.getEpochs((dev.praxis.aiws.engine.v1.GetEpochsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetEpochsResponse>) responseObserver);
          break;
        case METHODID_LIST_REFS:
          serviceImpl.listRefs((dev.praxis.aiws.engine.v1.ListRefsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListRefsResponse>) responseObserver);
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
          getReviewMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ReviewRequest,
              dev.praxis.aiws.engine.v1.ReviewResponse>(
                service, METHODID_REVIEW)))
        .addMethod(
          getExecuteMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ExecuteRequest,
              dev.praxis.aiws.engine.v1.ExecuteResponse>(
                service, METHODID_EXECUTE)))
        .addMethod(
          getGetHeadMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetHeadRequest,
              dev.praxis.aiws.engine.v1.GetHeadResponse>(
                service, METHODID_GET_HEAD)))
        .addMethod(
          getGetProposalMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetProposalRequest,
              dev.praxis.aiws.engine.v1.GetProposalResponse>(
                service, METHODID_GET_PROPOSAL)))
        .addMethod(
          getListHistoryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListHistoryRequest,
              dev.praxis.aiws.engine.v1.ListHistoryResponse>(
                service, METHODID_LIST_HISTORY)))
        .addMethod(
          getGetEpochsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetEpochsRequest,
              dev.praxis.aiws.engine.v1.GetEpochsResponse>(
                service, METHODID_GET_EPOCHS)))
        .addMethod(
          getListRefsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListRefsRequest,
              dev.praxis.aiws.engine.v1.ListRefsResponse>(
                service, METHODID_LIST_REFS)))
        .build();
  }

  private static abstract class RegistryServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    RegistryServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.Registry.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("RegistryService");
    }
  }

  private static final class RegistryServiceFileDescriptorSupplier
      extends RegistryServiceBaseDescriptorSupplier {
    RegistryServiceFileDescriptorSupplier() {}
  }

  private static final class RegistryServiceMethodDescriptorSupplier
      extends RegistryServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    RegistryServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (RegistryServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new RegistryServiceFileDescriptorSupplier())
              .addMethod(getReviewMethod())
              .addMethod(getExecuteMethod())
              .addMethod(getGetHeadMethod())
              .addMethod(getGetProposalMethod())
              .addMethod(getListHistoryMethod())
              .addMethod(getGetEpochsMethod())
              .addMethod(getListRefsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
