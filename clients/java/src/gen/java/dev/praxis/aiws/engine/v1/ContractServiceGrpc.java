package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * ContractService records the immutable contract of a work order (criteria, deadline,
 * budget and profile) and reports what has been spent against it. Runs name a contract
 * in `StartRunRequest.contract_id`; an attempt that would exceed the contract's
 * remaining budget or pass its deadline is not dispatched, and the run says why.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class ContractServiceGrpc {

  private ContractServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.ContractService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateContractRequest,
      dev.praxis.aiws.engine.v1.CreateContractResponse> getCreateContractMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateContract",
      requestType = dev.praxis.aiws.engine.v1.CreateContractRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CreateContractResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateContractRequest,
      dev.praxis.aiws.engine.v1.CreateContractResponse> getCreateContractMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateContractRequest, dev.praxis.aiws.engine.v1.CreateContractResponse> getCreateContractMethod;
    if ((getCreateContractMethod = ContractServiceGrpc.getCreateContractMethod) == null) {
      synchronized (ContractServiceGrpc.class) {
        if ((getCreateContractMethod = ContractServiceGrpc.getCreateContractMethod) == null) {
          ContractServiceGrpc.getCreateContractMethod = getCreateContractMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CreateContractRequest, dev.praxis.aiws.engine.v1.CreateContractResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateContract"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateContractRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateContractResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ContractServiceMethodDescriptorSupplier("CreateContract"))
              .build();
        }
      }
    }
    return getCreateContractMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetContractRequest,
      dev.praxis.aiws.engine.v1.GetContractResponse> getGetContractMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetContract",
      requestType = dev.praxis.aiws.engine.v1.GetContractRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetContractResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetContractRequest,
      dev.praxis.aiws.engine.v1.GetContractResponse> getGetContractMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetContractRequest, dev.praxis.aiws.engine.v1.GetContractResponse> getGetContractMethod;
    if ((getGetContractMethod = ContractServiceGrpc.getGetContractMethod) == null) {
      synchronized (ContractServiceGrpc.class) {
        if ((getGetContractMethod = ContractServiceGrpc.getGetContractMethod) == null) {
          ContractServiceGrpc.getGetContractMethod = getGetContractMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetContractRequest, dev.praxis.aiws.engine.v1.GetContractResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetContract"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetContractRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetContractResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ContractServiceMethodDescriptorSupplier("GetContract"))
              .build();
        }
      }
    }
    return getGetContractMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetSpendingRequest,
      dev.praxis.aiws.engine.v1.GetSpendingResponse> getGetSpendingMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetSpending",
      requestType = dev.praxis.aiws.engine.v1.GetSpendingRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetSpendingResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetSpendingRequest,
      dev.praxis.aiws.engine.v1.GetSpendingResponse> getGetSpendingMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetSpendingRequest, dev.praxis.aiws.engine.v1.GetSpendingResponse> getGetSpendingMethod;
    if ((getGetSpendingMethod = ContractServiceGrpc.getGetSpendingMethod) == null) {
      synchronized (ContractServiceGrpc.class) {
        if ((getGetSpendingMethod = ContractServiceGrpc.getGetSpendingMethod) == null) {
          ContractServiceGrpc.getGetSpendingMethod = getGetSpendingMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetSpendingRequest, dev.praxis.aiws.engine.v1.GetSpendingResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetSpending"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetSpendingRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetSpendingResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ContractServiceMethodDescriptorSupplier("GetSpending"))
              .build();
        }
      }
    }
    return getGetSpendingMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListContractsRequest,
      dev.praxis.aiws.engine.v1.ListContractsResponse> getListContractsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListContracts",
      requestType = dev.praxis.aiws.engine.v1.ListContractsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListContractsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListContractsRequest,
      dev.praxis.aiws.engine.v1.ListContractsResponse> getListContractsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListContractsRequest, dev.praxis.aiws.engine.v1.ListContractsResponse> getListContractsMethod;
    if ((getListContractsMethod = ContractServiceGrpc.getListContractsMethod) == null) {
      synchronized (ContractServiceGrpc.class) {
        if ((getListContractsMethod = ContractServiceGrpc.getListContractsMethod) == null) {
          ContractServiceGrpc.getListContractsMethod = getListContractsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListContractsRequest, dev.praxis.aiws.engine.v1.ListContractsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListContracts"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListContractsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListContractsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ContractServiceMethodDescriptorSupplier("ListContracts"))
              .build();
        }
      }
    }
    return getListContractsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ContractServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ContractServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ContractServiceStub>() {
        @java.lang.Override
        public ContractServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ContractServiceStub(channel, callOptions);
        }
      };
    return ContractServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static ContractServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ContractServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ContractServiceBlockingV2Stub>() {
        @java.lang.Override
        public ContractServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ContractServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return ContractServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ContractServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ContractServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ContractServiceBlockingStub>() {
        @java.lang.Override
        public ContractServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ContractServiceBlockingStub(channel, callOptions);
        }
      };
    return ContractServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ContractServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ContractServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ContractServiceFutureStub>() {
        @java.lang.Override
        public ContractServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ContractServiceFutureStub(channel, callOptions);
        }
      };
    return ContractServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * ContractService records the immutable contract of a work order (criteria, deadline,
   * budget and profile) and reports what has been spent against it. Runs name a contract
   * in `StartRunRequest.contract_id`; an attempt that would exceed the contract's
   * remaining budget or pass its deadline is not dispatched, and the run says why.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * CreateContract records a contract. Idempotent by contract id: the same id with the
     * same content returns the existing contract with `replayed = true`; with different
     * content it fails with CONTRACT_ALREADY_EXISTS. A contract never changes afterwards.
     * </pre>
     */
    default void createContract(dev.praxis.aiws.engine.v1.CreateContractRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateContractResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateContractMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetContract returns a contract with its exact spend, remaining budget and what its
     * running attempts have reserved.
     * </pre>
     */
    default void getContract(dev.praxis.aiws.engine.v1.GetContractRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetContractResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetContractMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetSpending returns what a principal's runs have spent, what their running attempts
     * have reserved, and the principal's spending cap (from its grant), if it has one.
     * </pre>
     */
    default void getSpending(dev.praxis.aiws.engine.v1.GetSpendingRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetSpendingResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetSpendingMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListContracts pages through contracts with their spend, ordered by contract id,
     * optionally of one work order. It needs `contract.read` on the work order asked for
     * (on every work order, `*`, when none is named).
     * </pre>
     */
    default void listContracts(dev.praxis.aiws.engine.v1.ListContractsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListContractsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListContractsMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service ContractService.
   * <pre>
   * ContractService records the immutable contract of a work order (criteria, deadline,
   * budget and profile) and reports what has been spent against it. Runs name a contract
   * in `StartRunRequest.contract_id`; an attempt that would exceed the contract's
   * remaining budget or pass its deadline is not dispatched, and the run says why.
   * </pre>
   */
  public static abstract class ContractServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return ContractServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service ContractService.
   * <pre>
   * ContractService records the immutable contract of a work order (criteria, deadline,
   * budget and profile) and reports what has been spent against it. Runs name a contract
   * in `StartRunRequest.contract_id`; an attempt that would exceed the contract's
   * remaining budget or pass its deadline is not dispatched, and the run says why.
   * </pre>
   */
  public static final class ContractServiceStub
      extends io.grpc.stub.AbstractAsyncStub<ContractServiceStub> {
    private ContractServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ContractServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ContractServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateContract records a contract. Idempotent by contract id: the same id with the
     * same content returns the existing contract with `replayed = true`; with different
     * content it fails with CONTRACT_ALREADY_EXISTS. A contract never changes afterwards.
     * </pre>
     */
    public void createContract(dev.praxis.aiws.engine.v1.CreateContractRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateContractResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateContractMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetContract returns a contract with its exact spend, remaining budget and what its
     * running attempts have reserved.
     * </pre>
     */
    public void getContract(dev.praxis.aiws.engine.v1.GetContractRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetContractResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetContractMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetSpending returns what a principal's runs have spent, what their running attempts
     * have reserved, and the principal's spending cap (from its grant), if it has one.
     * </pre>
     */
    public void getSpending(dev.praxis.aiws.engine.v1.GetSpendingRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetSpendingResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetSpendingMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListContracts pages through contracts with their spend, ordered by contract id,
     * optionally of one work order. It needs `contract.read` on the work order asked for
     * (on every work order, `*`, when none is named).
     * </pre>
     */
    public void listContracts(dev.praxis.aiws.engine.v1.ListContractsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListContractsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListContractsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service ContractService.
   * <pre>
   * ContractService records the immutable contract of a work order (criteria, deadline,
   * budget and profile) and reports what has been spent against it. Runs name a contract
   * in `StartRunRequest.contract_id`; an attempt that would exceed the contract's
   * remaining budget or pass its deadline is not dispatched, and the run says why.
   * </pre>
   */
  public static final class ContractServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<ContractServiceBlockingV2Stub> {
    private ContractServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ContractServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ContractServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateContract records a contract. Idempotent by contract id: the same id with the
     * same content returns the existing contract with `replayed = true`; with different
     * content it fails with CONTRACT_ALREADY_EXISTS. A contract never changes afterwards.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateContractResponse createContract(dev.praxis.aiws.engine.v1.CreateContractRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateContractMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetContract returns a contract with its exact spend, remaining budget and what its
     * running attempts have reserved.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetContractResponse getContract(dev.praxis.aiws.engine.v1.GetContractRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetContractMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSpending returns what a principal's runs have spent, what their running attempts
     * have reserved, and the principal's spending cap (from its grant), if it has one.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetSpendingResponse getSpending(dev.praxis.aiws.engine.v1.GetSpendingRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetSpendingMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListContracts pages through contracts with their spend, ordered by contract id,
     * optionally of one work order. It needs `contract.read` on the work order asked for
     * (on every work order, `*`, when none is named).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListContractsResponse listContracts(dev.praxis.aiws.engine.v1.ListContractsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListContractsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service ContractService.
   * <pre>
   * ContractService records the immutable contract of a work order (criteria, deadline,
   * budget and profile) and reports what has been spent against it. Runs name a contract
   * in `StartRunRequest.contract_id`; an attempt that would exceed the contract's
   * remaining budget or pass its deadline is not dispatched, and the run says why.
   * </pre>
   */
  public static final class ContractServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<ContractServiceBlockingStub> {
    private ContractServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ContractServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ContractServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateContract records a contract. Idempotent by contract id: the same id with the
     * same content returns the existing contract with `replayed = true`; with different
     * content it fails with CONTRACT_ALREADY_EXISTS. A contract never changes afterwards.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateContractResponse createContract(dev.praxis.aiws.engine.v1.CreateContractRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateContractMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetContract returns a contract with its exact spend, remaining budget and what its
     * running attempts have reserved.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetContractResponse getContract(dev.praxis.aiws.engine.v1.GetContractRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetContractMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSpending returns what a principal's runs have spent, what their running attempts
     * have reserved, and the principal's spending cap (from its grant), if it has one.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetSpendingResponse getSpending(dev.praxis.aiws.engine.v1.GetSpendingRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetSpendingMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListContracts pages through contracts with their spend, ordered by contract id,
     * optionally of one work order. It needs `contract.read` on the work order asked for
     * (on every work order, `*`, when none is named).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListContractsResponse listContracts(dev.praxis.aiws.engine.v1.ListContractsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListContractsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service ContractService.
   * <pre>
   * ContractService records the immutable contract of a work order (criteria, deadline,
   * budget and profile) and reports what has been spent against it. Runs name a contract
   * in `StartRunRequest.contract_id`; an attempt that would exceed the contract's
   * remaining budget or pass its deadline is not dispatched, and the run says why.
   * </pre>
   */
  public static final class ContractServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<ContractServiceFutureStub> {
    private ContractServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ContractServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ContractServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateContract records a contract. Idempotent by contract id: the same id with the
     * same content returns the existing contract with `replayed = true`; with different
     * content it fails with CONTRACT_ALREADY_EXISTS. A contract never changes afterwards.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CreateContractResponse> createContract(
        dev.praxis.aiws.engine.v1.CreateContractRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateContractMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetContract returns a contract with its exact spend, remaining budget and what its
     * running attempts have reserved.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetContractResponse> getContract(
        dev.praxis.aiws.engine.v1.GetContractRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetContractMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetSpending returns what a principal's runs have spent, what their running attempts
     * have reserved, and the principal's spending cap (from its grant), if it has one.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetSpendingResponse> getSpending(
        dev.praxis.aiws.engine.v1.GetSpendingRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetSpendingMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListContracts pages through contracts with their spend, ordered by contract id,
     * optionally of one work order. It needs `contract.read` on the work order asked for
     * (on every work order, `*`, when none is named).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListContractsResponse> listContracts(
        dev.praxis.aiws.engine.v1.ListContractsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListContractsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_CONTRACT = 0;
  private static final int METHODID_GET_CONTRACT = 1;
  private static final int METHODID_GET_SPENDING = 2;
  private static final int METHODID_LIST_CONTRACTS = 3;

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
        case METHODID_CREATE_CONTRACT:
          serviceImpl.createContract((dev.praxis.aiws.engine.v1.CreateContractRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateContractResponse>) responseObserver);
          break;
        case METHODID_GET_CONTRACT:
          serviceImpl.getContract((dev.praxis.aiws.engine.v1.GetContractRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetContractResponse>) responseObserver);
          break;
        case METHODID_GET_SPENDING:
          serviceImpl.getSpending((dev.praxis.aiws.engine.v1.GetSpendingRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetSpendingResponse>) responseObserver);
          break;
        case METHODID_LIST_CONTRACTS:
          serviceImpl.listContracts((dev.praxis.aiws.engine.v1.ListContractsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListContractsResponse>) responseObserver);
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
          getCreateContractMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CreateContractRequest,
              dev.praxis.aiws.engine.v1.CreateContractResponse>(
                service, METHODID_CREATE_CONTRACT)))
        .addMethod(
          getGetContractMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetContractRequest,
              dev.praxis.aiws.engine.v1.GetContractResponse>(
                service, METHODID_GET_CONTRACT)))
        .addMethod(
          getGetSpendingMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetSpendingRequest,
              dev.praxis.aiws.engine.v1.GetSpendingResponse>(
                service, METHODID_GET_SPENDING)))
        .addMethod(
          getListContractsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListContractsRequest,
              dev.praxis.aiws.engine.v1.ListContractsResponse>(
                service, METHODID_LIST_CONTRACTS)))
        .build();
  }

  private static abstract class ContractServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ContractServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.ContractOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("ContractService");
    }
  }

  private static final class ContractServiceFileDescriptorSupplier
      extends ContractServiceBaseDescriptorSupplier {
    ContractServiceFileDescriptorSupplier() {}
  }

  private static final class ContractServiceMethodDescriptorSupplier
      extends ContractServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    ContractServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (ContractServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ContractServiceFileDescriptorSupplier())
              .addMethod(getCreateContractMethod())
              .addMethod(getGetContractMethod())
              .addMethod(getGetSpendingMethod())
              .addMethod(getListContractsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
