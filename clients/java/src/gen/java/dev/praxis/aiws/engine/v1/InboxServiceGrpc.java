package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * InboxService answers one question the same way for every client: what waits for a
 * human decision right now. Its items are pending registry proposals, uncertain effects
 * awaiting a reviewed reconciliation (BLOCKED nodes), open human-input and authorization
 * waits, placed holds, stuck runs (a ready node no worker has claimed for longer than
 * the stuck threshold, 5 minutes), the verification and acceptance owed by completed runs
 * under a contract, handoffs awaiting acknowledgement, unconsumed approvals about to
 * expire (within an hour), and child work orders an agent proposed, oldest first. It is a read over the durable
 * records, so an item leaves the inbox in the same transaction that decides it (a stuck
 * run, in the transaction that leases its node, pauses its work order or ends the run).
 * It needs the `inbox.read` action on the work order asked for (on every work order,
 * `*`, when none is named).
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class InboxServiceGrpc {

  private InboxServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.InboxService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListInboxRequest,
      dev.praxis.aiws.engine.v1.ListInboxResponse> getListInboxMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListInbox",
      requestType = dev.praxis.aiws.engine.v1.ListInboxRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListInboxResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListInboxRequest,
      dev.praxis.aiws.engine.v1.ListInboxResponse> getListInboxMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListInboxRequest, dev.praxis.aiws.engine.v1.ListInboxResponse> getListInboxMethod;
    if ((getListInboxMethod = InboxServiceGrpc.getListInboxMethod) == null) {
      synchronized (InboxServiceGrpc.class) {
        if ((getListInboxMethod = InboxServiceGrpc.getListInboxMethod) == null) {
          InboxServiceGrpc.getListInboxMethod = getListInboxMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListInboxRequest, dev.praxis.aiws.engine.v1.ListInboxResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListInbox"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListInboxRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListInboxResponse.getDefaultInstance()))
              .setSchemaDescriptor(new InboxServiceMethodDescriptorSupplier("ListInbox"))
              .build();
        }
      }
    }
    return getListInboxMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.WatchInboxRequest,
      dev.praxis.aiws.engine.v1.WatchInboxResponse> getWatchInboxMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WatchInbox",
      requestType = dev.praxis.aiws.engine.v1.WatchInboxRequest.class,
      responseType = dev.praxis.aiws.engine.v1.WatchInboxResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.WatchInboxRequest,
      dev.praxis.aiws.engine.v1.WatchInboxResponse> getWatchInboxMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.WatchInboxRequest, dev.praxis.aiws.engine.v1.WatchInboxResponse> getWatchInboxMethod;
    if ((getWatchInboxMethod = InboxServiceGrpc.getWatchInboxMethod) == null) {
      synchronized (InboxServiceGrpc.class) {
        if ((getWatchInboxMethod = InboxServiceGrpc.getWatchInboxMethod) == null) {
          InboxServiceGrpc.getWatchInboxMethod = getWatchInboxMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.WatchInboxRequest, dev.praxis.aiws.engine.v1.WatchInboxResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WatchInbox"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.WatchInboxRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.WatchInboxResponse.getDefaultInstance()))
              .setSchemaDescriptor(new InboxServiceMethodDescriptorSupplier("WatchInbox"))
              .build();
        }
      }
    }
    return getWatchInboxMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static InboxServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<InboxServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<InboxServiceStub>() {
        @java.lang.Override
        public InboxServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new InboxServiceStub(channel, callOptions);
        }
      };
    return InboxServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static InboxServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<InboxServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<InboxServiceBlockingV2Stub>() {
        @java.lang.Override
        public InboxServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new InboxServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return InboxServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static InboxServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<InboxServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<InboxServiceBlockingStub>() {
        @java.lang.Override
        public InboxServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new InboxServiceBlockingStub(channel, callOptions);
        }
      };
    return InboxServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static InboxServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<InboxServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<InboxServiceFutureStub>() {
        @java.lang.Override
        public InboxServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new InboxServiceFutureStub(channel, callOptions);
        }
      };
    return InboxServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * InboxService answers one question the same way for every client: what waits for a
   * human decision right now. Its items are pending registry proposals, uncertain effects
   * awaiting a reviewed reconciliation (BLOCKED nodes), open human-input and authorization
   * waits, placed holds, stuck runs (a ready node no worker has claimed for longer than
   * the stuck threshold, 5 minutes), the verification and acceptance owed by completed runs
   * under a contract, handoffs awaiting acknowledgement, unconsumed approvals about to
   * expire (within an hour), and child work orders an agent proposed, oldest first. It is a read over the durable
   * records, so an item leaves the inbox in the same transaction that decides it (a stuck
   * run, in the transaction that leases its node, pauses its work order or ends the run).
   * It needs the `inbox.read` action on the work order asked for (on every work order,
   * `*`, when none is named).
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * ListInbox pages through the items waiting for a human, oldest first, with the
     * number of items of each kind.
     * </pre>
     */
    default void listInbox(dev.praxis.aiws.engine.v1.ListInboxRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListInboxResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListInboxMethod(), responseObserver);
    }

    /**
     * <pre>
     * WatchInbox streams the inbox's counts now and again whenever the inbox changes (an
     * item joins or leaves it), so that a page can update without polling; read the items
     * with ListInbox. It needs `inbox.read` like ListInbox, checked again at every change
     * (a revoked grant ends the stream with PERMISSION_DENIED). Changes are coalesced: at
     * most about four messages a second. A run becoming stuck, and an approval entering
     * its last hour or expiring, are changes that no write makes: the stream reads the
     * inbox again when the next of those it saw happens (within about a quarter of a
     * second), and at least once a minute for items past the oldest 2,000 it considers.
     * It is an open stream under the server's stream limits (RESOURCE_EXHAUSTED /
     * STREAM_LIMIT_REACHED past them); it ends UNAVAILABLE when the server stops.
     * </pre>
     */
    default void watchInbox(dev.praxis.aiws.engine.v1.WatchInboxRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.WatchInboxResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWatchInboxMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service InboxService.
   * <pre>
   * InboxService answers one question the same way for every client: what waits for a
   * human decision right now. Its items are pending registry proposals, uncertain effects
   * awaiting a reviewed reconciliation (BLOCKED nodes), open human-input and authorization
   * waits, placed holds, stuck runs (a ready node no worker has claimed for longer than
   * the stuck threshold, 5 minutes), the verification and acceptance owed by completed runs
   * under a contract, handoffs awaiting acknowledgement, unconsumed approvals about to
   * expire (within an hour), and child work orders an agent proposed, oldest first. It is a read over the durable
   * records, so an item leaves the inbox in the same transaction that decides it (a stuck
   * run, in the transaction that leases its node, pauses its work order or ends the run).
   * It needs the `inbox.read` action on the work order asked for (on every work order,
   * `*`, when none is named).
   * </pre>
   */
  public static abstract class InboxServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return InboxServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service InboxService.
   * <pre>
   * InboxService answers one question the same way for every client: what waits for a
   * human decision right now. Its items are pending registry proposals, uncertain effects
   * awaiting a reviewed reconciliation (BLOCKED nodes), open human-input and authorization
   * waits, placed holds, stuck runs (a ready node no worker has claimed for longer than
   * the stuck threshold, 5 minutes), the verification and acceptance owed by completed runs
   * under a contract, handoffs awaiting acknowledgement, unconsumed approvals about to
   * expire (within an hour), and child work orders an agent proposed, oldest first. It is a read over the durable
   * records, so an item leaves the inbox in the same transaction that decides it (a stuck
   * run, in the transaction that leases its node, pauses its work order or ends the run).
   * It needs the `inbox.read` action on the work order asked for (on every work order,
   * `*`, when none is named).
   * </pre>
   */
  public static final class InboxServiceStub
      extends io.grpc.stub.AbstractAsyncStub<InboxServiceStub> {
    private InboxServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected InboxServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new InboxServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListInbox pages through the items waiting for a human, oldest first, with the
     * number of items of each kind.
     * </pre>
     */
    public void listInbox(dev.praxis.aiws.engine.v1.ListInboxRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListInboxResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListInboxMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * WatchInbox streams the inbox's counts now and again whenever the inbox changes (an
     * item joins or leaves it), so that a page can update without polling; read the items
     * with ListInbox. It needs `inbox.read` like ListInbox, checked again at every change
     * (a revoked grant ends the stream with PERMISSION_DENIED). Changes are coalesced: at
     * most about four messages a second. A run becoming stuck, and an approval entering
     * its last hour or expiring, are changes that no write makes: the stream reads the
     * inbox again when the next of those it saw happens (within about a quarter of a
     * second), and at least once a minute for items past the oldest 2,000 it considers.
     * It is an open stream under the server's stream limits (RESOURCE_EXHAUSTED /
     * STREAM_LIMIT_REACHED past them); it ends UNAVAILABLE when the server stops.
     * </pre>
     */
    public void watchInbox(dev.praxis.aiws.engine.v1.WatchInboxRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.WatchInboxResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getWatchInboxMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service InboxService.
   * <pre>
   * InboxService answers one question the same way for every client: what waits for a
   * human decision right now. Its items are pending registry proposals, uncertain effects
   * awaiting a reviewed reconciliation (BLOCKED nodes), open human-input and authorization
   * waits, placed holds, stuck runs (a ready node no worker has claimed for longer than
   * the stuck threshold, 5 minutes), the verification and acceptance owed by completed runs
   * under a contract, handoffs awaiting acknowledgement, unconsumed approvals about to
   * expire (within an hour), and child work orders an agent proposed, oldest first. It is a read over the durable
   * records, so an item leaves the inbox in the same transaction that decides it (a stuck
   * run, in the transaction that leases its node, pauses its work order or ends the run).
   * It needs the `inbox.read` action on the work order asked for (on every work order,
   * `*`, when none is named).
   * </pre>
   */
  public static final class InboxServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<InboxServiceBlockingV2Stub> {
    private InboxServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected InboxServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new InboxServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * ListInbox pages through the items waiting for a human, oldest first, with the
     * number of items of each kind.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListInboxResponse listInbox(dev.praxis.aiws.engine.v1.ListInboxRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListInboxMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * WatchInbox streams the inbox's counts now and again whenever the inbox changes (an
     * item joins or leaves it), so that a page can update without polling; read the items
     * with ListInbox. It needs `inbox.read` like ListInbox, checked again at every change
     * (a revoked grant ends the stream with PERMISSION_DENIED). Changes are coalesced: at
     * most about four messages a second. A run becoming stuck, and an approval entering
     * its last hour or expiring, are changes that no write makes: the stream reads the
     * inbox again when the next of those it saw happens (within about a quarter of a
     * second), and at least once a minute for items past the oldest 2,000 it considers.
     * It is an open stream under the server's stream limits (RESOURCE_EXHAUSTED /
     * STREAM_LIMIT_REACHED past them); it ends UNAVAILABLE when the server stops.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, dev.praxis.aiws.engine.v1.WatchInboxResponse>
        watchInbox(dev.praxis.aiws.engine.v1.WatchInboxRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getWatchInboxMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service InboxService.
   * <pre>
   * InboxService answers one question the same way for every client: what waits for a
   * human decision right now. Its items are pending registry proposals, uncertain effects
   * awaiting a reviewed reconciliation (BLOCKED nodes), open human-input and authorization
   * waits, placed holds, stuck runs (a ready node no worker has claimed for longer than
   * the stuck threshold, 5 minutes), the verification and acceptance owed by completed runs
   * under a contract, handoffs awaiting acknowledgement, unconsumed approvals about to
   * expire (within an hour), and child work orders an agent proposed, oldest first. It is a read over the durable
   * records, so an item leaves the inbox in the same transaction that decides it (a stuck
   * run, in the transaction that leases its node, pauses its work order or ends the run).
   * It needs the `inbox.read` action on the work order asked for (on every work order,
   * `*`, when none is named).
   * </pre>
   */
  public static final class InboxServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<InboxServiceBlockingStub> {
    private InboxServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected InboxServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new InboxServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListInbox pages through the items waiting for a human, oldest first, with the
     * number of items of each kind.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListInboxResponse listInbox(dev.praxis.aiws.engine.v1.ListInboxRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListInboxMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * WatchInbox streams the inbox's counts now and again whenever the inbox changes (an
     * item joins or leaves it), so that a page can update without polling; read the items
     * with ListInbox. It needs `inbox.read` like ListInbox, checked again at every change
     * (a revoked grant ends the stream with PERMISSION_DENIED). Changes are coalesced: at
     * most about four messages a second. A run becoming stuck, and an approval entering
     * its last hour or expiring, are changes that no write makes: the stream reads the
     * inbox again when the next of those it saw happens (within about a quarter of a
     * second), and at least once a minute for items past the oldest 2,000 it considers.
     * It is an open stream under the server's stream limits (RESOURCE_EXHAUSTED /
     * STREAM_LIMIT_REACHED past them); it ends UNAVAILABLE when the server stops.
     * </pre>
     */
    public java.util.Iterator<dev.praxis.aiws.engine.v1.WatchInboxResponse> watchInbox(
        dev.praxis.aiws.engine.v1.WatchInboxRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getWatchInboxMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service InboxService.
   * <pre>
   * InboxService answers one question the same way for every client: what waits for a
   * human decision right now. Its items are pending registry proposals, uncertain effects
   * awaiting a reviewed reconciliation (BLOCKED nodes), open human-input and authorization
   * waits, placed holds, stuck runs (a ready node no worker has claimed for longer than
   * the stuck threshold, 5 minutes), the verification and acceptance owed by completed runs
   * under a contract, handoffs awaiting acknowledgement, unconsumed approvals about to
   * expire (within an hour), and child work orders an agent proposed, oldest first. It is a read over the durable
   * records, so an item leaves the inbox in the same transaction that decides it (a stuck
   * run, in the transaction that leases its node, pauses its work order or ends the run).
   * It needs the `inbox.read` action on the work order asked for (on every work order,
   * `*`, when none is named).
   * </pre>
   */
  public static final class InboxServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<InboxServiceFutureStub> {
    private InboxServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected InboxServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new InboxServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListInbox pages through the items waiting for a human, oldest first, with the
     * number of items of each kind.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListInboxResponse> listInbox(
        dev.praxis.aiws.engine.v1.ListInboxRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListInboxMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_INBOX = 0;
  private static final int METHODID_WATCH_INBOX = 1;

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
        case METHODID_LIST_INBOX:
          serviceImpl.listInbox((dev.praxis.aiws.engine.v1.ListInboxRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListInboxResponse>) responseObserver);
          break;
        case METHODID_WATCH_INBOX:
          serviceImpl.watchInbox((dev.praxis.aiws.engine.v1.WatchInboxRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.WatchInboxResponse>) responseObserver);
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
          getListInboxMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListInboxRequest,
              dev.praxis.aiws.engine.v1.ListInboxResponse>(
                service, METHODID_LIST_INBOX)))
        .addMethod(
          getWatchInboxMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.WatchInboxRequest,
              dev.praxis.aiws.engine.v1.WatchInboxResponse>(
                service, METHODID_WATCH_INBOX)))
        .build();
  }

  private static abstract class InboxServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    InboxServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.Inbox.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("InboxService");
    }
  }

  private static final class InboxServiceFileDescriptorSupplier
      extends InboxServiceBaseDescriptorSupplier {
    InboxServiceFileDescriptorSupplier() {}
  }

  private static final class InboxServiceMethodDescriptorSupplier
      extends InboxServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    InboxServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (InboxServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new InboxServiceFileDescriptorSupplier())
              .addMethod(getListInboxMethod())
              .addMethod(getWatchInboxMethod())
              .build();
        }
      }
    }
    return result;
  }
}
