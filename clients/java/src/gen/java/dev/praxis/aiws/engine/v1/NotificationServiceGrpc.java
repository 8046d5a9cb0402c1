package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * NotificationService shows operators the outbox of webhook deliveries (runs started
 * with `notify.webhooks`) and lets them deliver one again. Each delivery is written in
 * the same transaction as its run's terminal state and posted by the server from a
 * bounded pool, at least once, with a stable `delivery_id` (the `webhook-id` header),
 * retried with exponential backoff and jitter until its destination answers 2xx, or
 * until it has been tried `max_attempts` times (8 by default), when it becomes DEAD.
 * Reading needs the `notification.read` action, redelivering `notification.redeliver`
 * (both on every work order, `*`).
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class NotificationServiceGrpc {

  private NotificationServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.NotificationService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListDeliveriesRequest,
      dev.praxis.aiws.engine.v1.ListDeliveriesResponse> getListDeliveriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListDeliveries",
      requestType = dev.praxis.aiws.engine.v1.ListDeliveriesRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListDeliveriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListDeliveriesRequest,
      dev.praxis.aiws.engine.v1.ListDeliveriesResponse> getListDeliveriesMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListDeliveriesRequest, dev.praxis.aiws.engine.v1.ListDeliveriesResponse> getListDeliveriesMethod;
    if ((getListDeliveriesMethod = NotificationServiceGrpc.getListDeliveriesMethod) == null) {
      synchronized (NotificationServiceGrpc.class) {
        if ((getListDeliveriesMethod = NotificationServiceGrpc.getListDeliveriesMethod) == null) {
          NotificationServiceGrpc.getListDeliveriesMethod = getListDeliveriesMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListDeliveriesRequest, dev.praxis.aiws.engine.v1.ListDeliveriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListDeliveries"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListDeliveriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListDeliveriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new NotificationServiceMethodDescriptorSupplier("ListDeliveries"))
              .build();
        }
      }
    }
    return getListDeliveriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest,
      dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse> getRedeliverDeliveryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RedeliverDelivery",
      requestType = dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest.class,
      responseType = dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest,
      dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse> getRedeliverDeliveryMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest, dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse> getRedeliverDeliveryMethod;
    if ((getRedeliverDeliveryMethod = NotificationServiceGrpc.getRedeliverDeliveryMethod) == null) {
      synchronized (NotificationServiceGrpc.class) {
        if ((getRedeliverDeliveryMethod = NotificationServiceGrpc.getRedeliverDeliveryMethod) == null) {
          NotificationServiceGrpc.getRedeliverDeliveryMethod = getRedeliverDeliveryMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest, dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RedeliverDelivery"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new NotificationServiceMethodDescriptorSupplier("RedeliverDelivery"))
              .build();
        }
      }
    }
    return getRedeliverDeliveryMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static NotificationServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<NotificationServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<NotificationServiceStub>() {
        @java.lang.Override
        public NotificationServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new NotificationServiceStub(channel, callOptions);
        }
      };
    return NotificationServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static NotificationServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<NotificationServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<NotificationServiceBlockingV2Stub>() {
        @java.lang.Override
        public NotificationServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new NotificationServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return NotificationServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static NotificationServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<NotificationServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<NotificationServiceBlockingStub>() {
        @java.lang.Override
        public NotificationServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new NotificationServiceBlockingStub(channel, callOptions);
        }
      };
    return NotificationServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static NotificationServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<NotificationServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<NotificationServiceFutureStub>() {
        @java.lang.Override
        public NotificationServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new NotificationServiceFutureStub(channel, callOptions);
        }
      };
    return NotificationServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * NotificationService shows operators the outbox of webhook deliveries (runs started
   * with `notify.webhooks`) and lets them deliver one again. Each delivery is written in
   * the same transaction as its run's terminal state and posted by the server from a
   * bounded pool, at least once, with a stable `delivery_id` (the `webhook-id` header),
   * retried with exponential backoff and jitter until its destination answers 2xx, or
   * until it has been tried `max_attempts` times (8 by default), when it becomes DEAD.
   * Reading needs the `notification.read` action, redelivering `notification.redeliver`
   * (both on every work order, `*`).
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * ListDeliveries pages through deliveries, newest first, with the number of
     * deliveries in each state.
     * </pre>
     */
    default void listDeliveries(dev.praxis.aiws.engine.v1.ListDeliveriesRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListDeliveriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListDeliveriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * RedeliverDelivery makes a delivery due now again, whatever its state (a DEAD one
     * above all), with a fresh count of tries and the same `delivery_id` and body, so a
     * receiver that had it already can drop it. Calling it again on a delivery already
     * due changes nothing but its due time.
     * </pre>
     */
    default void redeliverDelivery(dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRedeliverDeliveryMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service NotificationService.
   * <pre>
   * NotificationService shows operators the outbox of webhook deliveries (runs started
   * with `notify.webhooks`) and lets them deliver one again. Each delivery is written in
   * the same transaction as its run's terminal state and posted by the server from a
   * bounded pool, at least once, with a stable `delivery_id` (the `webhook-id` header),
   * retried with exponential backoff and jitter until its destination answers 2xx, or
   * until it has been tried `max_attempts` times (8 by default), when it becomes DEAD.
   * Reading needs the `notification.read` action, redelivering `notification.redeliver`
   * (both on every work order, `*`).
   * </pre>
   */
  public static abstract class NotificationServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return NotificationServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service NotificationService.
   * <pre>
   * NotificationService shows operators the outbox of webhook deliveries (runs started
   * with `notify.webhooks`) and lets them deliver one again. Each delivery is written in
   * the same transaction as its run's terminal state and posted by the server from a
   * bounded pool, at least once, with a stable `delivery_id` (the `webhook-id` header),
   * retried with exponential backoff and jitter until its destination answers 2xx, or
   * until it has been tried `max_attempts` times (8 by default), when it becomes DEAD.
   * Reading needs the `notification.read` action, redelivering `notification.redeliver`
   * (both on every work order, `*`).
   * </pre>
   */
  public static final class NotificationServiceStub
      extends io.grpc.stub.AbstractAsyncStub<NotificationServiceStub> {
    private NotificationServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected NotificationServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new NotificationServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListDeliveries pages through deliveries, newest first, with the number of
     * deliveries in each state.
     * </pre>
     */
    public void listDeliveries(dev.praxis.aiws.engine.v1.ListDeliveriesRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListDeliveriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListDeliveriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RedeliverDelivery makes a delivery due now again, whatever its state (a DEAD one
     * above all), with a fresh count of tries and the same `delivery_id` and body, so a
     * receiver that had it already can drop it. Calling it again on a delivery already
     * due changes nothing but its due time.
     * </pre>
     */
    public void redeliverDelivery(dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRedeliverDeliveryMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service NotificationService.
   * <pre>
   * NotificationService shows operators the outbox of webhook deliveries (runs started
   * with `notify.webhooks`) and lets them deliver one again. Each delivery is written in
   * the same transaction as its run's terminal state and posted by the server from a
   * bounded pool, at least once, with a stable `delivery_id` (the `webhook-id` header),
   * retried with exponential backoff and jitter until its destination answers 2xx, or
   * until it has been tried `max_attempts` times (8 by default), when it becomes DEAD.
   * Reading needs the `notification.read` action, redelivering `notification.redeliver`
   * (both on every work order, `*`).
   * </pre>
   */
  public static final class NotificationServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<NotificationServiceBlockingV2Stub> {
    private NotificationServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected NotificationServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new NotificationServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * ListDeliveries pages through deliveries, newest first, with the number of
     * deliveries in each state.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListDeliveriesResponse listDeliveries(dev.praxis.aiws.engine.v1.ListDeliveriesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListDeliveriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RedeliverDelivery makes a delivery due now again, whatever its state (a DEAD one
     * above all), with a fresh count of tries and the same `delivery_id` and body, so a
     * receiver that had it already can drop it. Calling it again on a delivery already
     * due changes nothing but its due time.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse redeliverDelivery(dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRedeliverDeliveryMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service NotificationService.
   * <pre>
   * NotificationService shows operators the outbox of webhook deliveries (runs started
   * with `notify.webhooks`) and lets them deliver one again. Each delivery is written in
   * the same transaction as its run's terminal state and posted by the server from a
   * bounded pool, at least once, with a stable `delivery_id` (the `webhook-id` header),
   * retried with exponential backoff and jitter until its destination answers 2xx, or
   * until it has been tried `max_attempts` times (8 by default), when it becomes DEAD.
   * Reading needs the `notification.read` action, redelivering `notification.redeliver`
   * (both on every work order, `*`).
   * </pre>
   */
  public static final class NotificationServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<NotificationServiceBlockingStub> {
    private NotificationServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected NotificationServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new NotificationServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListDeliveries pages through deliveries, newest first, with the number of
     * deliveries in each state.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListDeliveriesResponse listDeliveries(dev.praxis.aiws.engine.v1.ListDeliveriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListDeliveriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RedeliverDelivery makes a delivery due now again, whatever its state (a DEAD one
     * above all), with a fresh count of tries and the same `delivery_id` and body, so a
     * receiver that had it already can drop it. Calling it again on a delivery already
     * due changes nothing but its due time.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse redeliverDelivery(dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRedeliverDeliveryMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service NotificationService.
   * <pre>
   * NotificationService shows operators the outbox of webhook deliveries (runs started
   * with `notify.webhooks`) and lets them deliver one again. Each delivery is written in
   * the same transaction as its run's terminal state and posted by the server from a
   * bounded pool, at least once, with a stable `delivery_id` (the `webhook-id` header),
   * retried with exponential backoff and jitter until its destination answers 2xx, or
   * until it has been tried `max_attempts` times (8 by default), when it becomes DEAD.
   * Reading needs the `notification.read` action, redelivering `notification.redeliver`
   * (both on every work order, `*`).
   * </pre>
   */
  public static final class NotificationServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<NotificationServiceFutureStub> {
    private NotificationServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected NotificationServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new NotificationServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListDeliveries pages through deliveries, newest first, with the number of
     * deliveries in each state.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListDeliveriesResponse> listDeliveries(
        dev.praxis.aiws.engine.v1.ListDeliveriesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListDeliveriesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * RedeliverDelivery makes a delivery due now again, whatever its state (a DEAD one
     * above all), with a fresh count of tries and the same `delivery_id` and body, so a
     * receiver that had it already can drop it. Calling it again on a delivery already
     * due changes nothing but its due time.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse> redeliverDelivery(
        dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRedeliverDeliveryMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_DELIVERIES = 0;
  private static final int METHODID_REDELIVER_DELIVERY = 1;

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
        case METHODID_LIST_DELIVERIES:
          serviceImpl.listDeliveries((dev.praxis.aiws.engine.v1.ListDeliveriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListDeliveriesResponse>) responseObserver);
          break;
        case METHODID_REDELIVER_DELIVERY:
          serviceImpl.redeliverDelivery((dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse>) responseObserver);
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
          getListDeliveriesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListDeliveriesRequest,
              dev.praxis.aiws.engine.v1.ListDeliveriesResponse>(
                service, METHODID_LIST_DELIVERIES)))
        .addMethod(
          getRedeliverDeliveryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.RedeliverDeliveryRequest,
              dev.praxis.aiws.engine.v1.RedeliverDeliveryResponse>(
                service, METHODID_REDELIVER_DELIVERY)))
        .build();
  }

  private static abstract class NotificationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    NotificationServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.Notification.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("NotificationService");
    }
  }

  private static final class NotificationServiceFileDescriptorSupplier
      extends NotificationServiceBaseDescriptorSupplier {
    NotificationServiceFileDescriptorSupplier() {}
  }

  private static final class NotificationServiceMethodDescriptorSupplier
      extends NotificationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    NotificationServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (NotificationServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new NotificationServiceFileDescriptorSupplier())
              .addMethod(getListDeliveriesMethod())
              .addMethod(getRedeliverDeliveryMethod())
              .build();
        }
      }
    }
    return result;
  }
}
