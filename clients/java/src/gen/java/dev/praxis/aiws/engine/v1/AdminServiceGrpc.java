package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * AdminService holds the operator controls: work-order controls, holds and epochs.
 * Every RPC needs a principal granted the matching `admin.*` action. The engine never
 * changes controls, clears holds or advances epochs on its own.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class AdminServiceGrpc {

  private AdminServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.AdminService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWorkOrderRequest,
      dev.praxis.aiws.engine.v1.GetWorkOrderResponse> getGetWorkOrderMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetWorkOrder",
      requestType = dev.praxis.aiws.engine.v1.GetWorkOrderRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetWorkOrderResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWorkOrderRequest,
      dev.praxis.aiws.engine.v1.GetWorkOrderResponse> getGetWorkOrderMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWorkOrderRequest, dev.praxis.aiws.engine.v1.GetWorkOrderResponse> getGetWorkOrderMethod;
    if ((getGetWorkOrderMethod = AdminServiceGrpc.getGetWorkOrderMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getGetWorkOrderMethod = AdminServiceGrpc.getGetWorkOrderMethod) == null) {
          AdminServiceGrpc.getGetWorkOrderMethod = getGetWorkOrderMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetWorkOrderRequest, dev.praxis.aiws.engine.v1.GetWorkOrderResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetWorkOrder"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetWorkOrderRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetWorkOrderResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("GetWorkOrder"))
              .build();
        }
      }
    }
    return getGetWorkOrderMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PauseWorkOrderRequest,
      dev.praxis.aiws.engine.v1.PauseWorkOrderResponse> getPauseWorkOrderMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "PauseWorkOrder",
      requestType = dev.praxis.aiws.engine.v1.PauseWorkOrderRequest.class,
      responseType = dev.praxis.aiws.engine.v1.PauseWorkOrderResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PauseWorkOrderRequest,
      dev.praxis.aiws.engine.v1.PauseWorkOrderResponse> getPauseWorkOrderMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PauseWorkOrderRequest, dev.praxis.aiws.engine.v1.PauseWorkOrderResponse> getPauseWorkOrderMethod;
    if ((getPauseWorkOrderMethod = AdminServiceGrpc.getPauseWorkOrderMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getPauseWorkOrderMethod = AdminServiceGrpc.getPauseWorkOrderMethod) == null) {
          AdminServiceGrpc.getPauseWorkOrderMethod = getPauseWorkOrderMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.PauseWorkOrderRequest, dev.praxis.aiws.engine.v1.PauseWorkOrderResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "PauseWorkOrder"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.PauseWorkOrderRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.PauseWorkOrderResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("PauseWorkOrder"))
              .build();
        }
      }
    }
    return getPauseWorkOrderMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest,
      dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse> getResumeWorkOrderMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ResumeWorkOrder",
      requestType = dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest,
      dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse> getResumeWorkOrderMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest, dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse> getResumeWorkOrderMethod;
    if ((getResumeWorkOrderMethod = AdminServiceGrpc.getResumeWorkOrderMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getResumeWorkOrderMethod = AdminServiceGrpc.getResumeWorkOrderMethod) == null) {
          AdminServiceGrpc.getResumeWorkOrderMethod = getResumeWorkOrderMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest, dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ResumeWorkOrder"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("ResumeWorkOrder"))
              .build();
        }
      }
    }
    return getResumeWorkOrderMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CancelWorkOrderRequest,
      dev.praxis.aiws.engine.v1.CancelWorkOrderResponse> getCancelWorkOrderMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CancelWorkOrder",
      requestType = dev.praxis.aiws.engine.v1.CancelWorkOrderRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CancelWorkOrderResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CancelWorkOrderRequest,
      dev.praxis.aiws.engine.v1.CancelWorkOrderResponse> getCancelWorkOrderMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CancelWorkOrderRequest, dev.praxis.aiws.engine.v1.CancelWorkOrderResponse> getCancelWorkOrderMethod;
    if ((getCancelWorkOrderMethod = AdminServiceGrpc.getCancelWorkOrderMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getCancelWorkOrderMethod = AdminServiceGrpc.getCancelWorkOrderMethod) == null) {
          AdminServiceGrpc.getCancelWorkOrderMethod = getCancelWorkOrderMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CancelWorkOrderRequest, dev.praxis.aiws.engine.v1.CancelWorkOrderResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CancelWorkOrder"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CancelWorkOrderRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CancelWorkOrderResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("CancelWorkOrder"))
              .build();
        }
      }
    }
    return getCancelWorkOrderMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PlaceHoldRequest,
      dev.praxis.aiws.engine.v1.PlaceHoldResponse> getPlaceHoldMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "PlaceHold",
      requestType = dev.praxis.aiws.engine.v1.PlaceHoldRequest.class,
      responseType = dev.praxis.aiws.engine.v1.PlaceHoldResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PlaceHoldRequest,
      dev.praxis.aiws.engine.v1.PlaceHoldResponse> getPlaceHoldMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PlaceHoldRequest, dev.praxis.aiws.engine.v1.PlaceHoldResponse> getPlaceHoldMethod;
    if ((getPlaceHoldMethod = AdminServiceGrpc.getPlaceHoldMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getPlaceHoldMethod = AdminServiceGrpc.getPlaceHoldMethod) == null) {
          AdminServiceGrpc.getPlaceHoldMethod = getPlaceHoldMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.PlaceHoldRequest, dev.praxis.aiws.engine.v1.PlaceHoldResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "PlaceHold"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.PlaceHoldRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.PlaceHoldResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("PlaceHold"))
              .build();
        }
      }
    }
    return getPlaceHoldMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ClearHoldRequest,
      dev.praxis.aiws.engine.v1.ClearHoldResponse> getClearHoldMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ClearHold",
      requestType = dev.praxis.aiws.engine.v1.ClearHoldRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ClearHoldResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ClearHoldRequest,
      dev.praxis.aiws.engine.v1.ClearHoldResponse> getClearHoldMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ClearHoldRequest, dev.praxis.aiws.engine.v1.ClearHoldResponse> getClearHoldMethod;
    if ((getClearHoldMethod = AdminServiceGrpc.getClearHoldMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getClearHoldMethod = AdminServiceGrpc.getClearHoldMethod) == null) {
          AdminServiceGrpc.getClearHoldMethod = getClearHoldMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ClearHoldRequest, dev.praxis.aiws.engine.v1.ClearHoldResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ClearHold"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ClearHoldRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ClearHoldResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("ClearHold"))
              .build();
        }
      }
    }
    return getClearHoldMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHoldsRequest,
      dev.praxis.aiws.engine.v1.ListHoldsResponse> getListHoldsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListHolds",
      requestType = dev.praxis.aiws.engine.v1.ListHoldsRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListHoldsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHoldsRequest,
      dev.praxis.aiws.engine.v1.ListHoldsResponse> getListHoldsMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListHoldsRequest, dev.praxis.aiws.engine.v1.ListHoldsResponse> getListHoldsMethod;
    if ((getListHoldsMethod = AdminServiceGrpc.getListHoldsMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getListHoldsMethod = AdminServiceGrpc.getListHoldsMethod) == null) {
          AdminServiceGrpc.getListHoldsMethod = getListHoldsMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListHoldsRequest, dev.praxis.aiws.engine.v1.ListHoldsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListHolds"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListHoldsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListHoldsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("ListHolds"))
              .build();
        }
      }
    }
    return getListHoldsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AdvanceEpochRequest,
      dev.praxis.aiws.engine.v1.AdvanceEpochResponse> getAdvanceEpochMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AdvanceEpoch",
      requestType = dev.praxis.aiws.engine.v1.AdvanceEpochRequest.class,
      responseType = dev.praxis.aiws.engine.v1.AdvanceEpochResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AdvanceEpochRequest,
      dev.praxis.aiws.engine.v1.AdvanceEpochResponse> getAdvanceEpochMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.AdvanceEpochRequest, dev.praxis.aiws.engine.v1.AdvanceEpochResponse> getAdvanceEpochMethod;
    if ((getAdvanceEpochMethod = AdminServiceGrpc.getAdvanceEpochMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getAdvanceEpochMethod = AdminServiceGrpc.getAdvanceEpochMethod) == null) {
          AdminServiceGrpc.getAdvanceEpochMethod = getAdvanceEpochMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.AdvanceEpochRequest, dev.praxis.aiws.engine.v1.AdvanceEpochResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AdvanceEpoch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.AdvanceEpochRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.AdvanceEpochResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("AdvanceEpoch"))
              .build();
        }
      }
    }
    return getAdvanceEpochMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReloadConfigRequest,
      dev.praxis.aiws.engine.v1.ReloadConfigResponse> getReloadConfigMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReloadConfig",
      requestType = dev.praxis.aiws.engine.v1.ReloadConfigRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ReloadConfigResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReloadConfigRequest,
      dev.praxis.aiws.engine.v1.ReloadConfigResponse> getReloadConfigMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReloadConfigRequest, dev.praxis.aiws.engine.v1.ReloadConfigResponse> getReloadConfigMethod;
    if ((getReloadConfigMethod = AdminServiceGrpc.getReloadConfigMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getReloadConfigMethod = AdminServiceGrpc.getReloadConfigMethod) == null) {
          AdminServiceGrpc.getReloadConfigMethod = getReloadConfigMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ReloadConfigRequest, dev.praxis.aiws.engine.v1.ReloadConfigResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReloadConfig"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReloadConfigRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReloadConfigResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("ReloadConfig"))
              .build();
        }
      }
    }
    return getReloadConfigMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetConfigStatusRequest,
      dev.praxis.aiws.engine.v1.GetConfigStatusResponse> getGetConfigStatusMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetConfigStatus",
      requestType = dev.praxis.aiws.engine.v1.GetConfigStatusRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetConfigStatusResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetConfigStatusRequest,
      dev.praxis.aiws.engine.v1.GetConfigStatusResponse> getGetConfigStatusMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetConfigStatusRequest, dev.praxis.aiws.engine.v1.GetConfigStatusResponse> getGetConfigStatusMethod;
    if ((getGetConfigStatusMethod = AdminServiceGrpc.getGetConfigStatusMethod) == null) {
      synchronized (AdminServiceGrpc.class) {
        if ((getGetConfigStatusMethod = AdminServiceGrpc.getGetConfigStatusMethod) == null) {
          AdminServiceGrpc.getGetConfigStatusMethod = getGetConfigStatusMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetConfigStatusRequest, dev.praxis.aiws.engine.v1.GetConfigStatusResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetConfigStatus"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetConfigStatusRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetConfigStatusResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AdminServiceMethodDescriptorSupplier("GetConfigStatus"))
              .build();
        }
      }
    }
    return getGetConfigStatusMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static AdminServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AdminServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AdminServiceStub>() {
        @java.lang.Override
        public AdminServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AdminServiceStub(channel, callOptions);
        }
      };
    return AdminServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static AdminServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AdminServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AdminServiceBlockingV2Stub>() {
        @java.lang.Override
        public AdminServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AdminServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return AdminServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static AdminServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AdminServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AdminServiceBlockingStub>() {
        @java.lang.Override
        public AdminServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AdminServiceBlockingStub(channel, callOptions);
        }
      };
    return AdminServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static AdminServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AdminServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AdminServiceFutureStub>() {
        @java.lang.Override
        public AdminServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AdminServiceFutureStub(channel, callOptions);
        }
      };
    return AdminServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * AdminService holds the operator controls: work-order controls, holds and epochs.
   * Every RPC needs a principal granted the matching `admin.*` action. The engine never
   * changes controls, clears holds or advances epochs on its own.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * GetWorkOrder returns a work order's control state, epochs and holds.
     * </pre>
     */
    default void getWorkOrder(dev.praxis.aiws.engine.v1.GetWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWorkOrderResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetWorkOrderMethod(), responseObserver);
    }

    /**
     * <pre>
     * PauseWorkOrder blocks commands and dispatch for a work order until resumed.
     * </pre>
     */
    default void pauseWorkOrder(dev.praxis.aiws.engine.v1.PauseWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PauseWorkOrderResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getPauseWorkOrderMethod(), responseObserver);
    }

    /**
     * <pre>
     * ResumeWorkOrder lifts a pause.
     * </pre>
     */
    default void resumeWorkOrder(dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getResumeWorkOrderMethod(), responseObserver);
    }

    /**
     * <pre>
     * CancelWorkOrder cancels a work order for good: its live runs are stopped and every
     * later command fails with WORK_ORDER_CANCELED.
     * </pre>
     */
    default void cancelWorkOrder(dev.praxis.aiws.engine.v1.CancelWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CancelWorkOrderResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCancelWorkOrderMethod(), responseObserver);
    }

    /**
     * <pre>
     * PlaceHold places a restore hold (for example after restoring a backup) on the
     * installation or on one work order.
     * </pre>
     */
    default void placeHold(dev.praxis.aiws.engine.v1.PlaceHoldRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PlaceHoldResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getPlaceHoldMethod(), responseObserver);
    }

    /**
     * <pre>
     * ClearHold clears a restore or clock-uncertainty hold. Fails with HOLD_NOT_FOUND
     * when no such hold is placed.
     * </pre>
     */
    default void clearHold(dev.praxis.aiws.engine.v1.ClearHoldRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ClearHoldResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getClearHoldMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListHolds lists the holds currently placed.
     * </pre>
     */
    default void listHolds(dev.praxis.aiws.engine.v1.ListHoldsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHoldsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListHoldsMethod(), responseObserver);
    }

    /**
     * <pre>
     * AdvanceEpoch increments a work order's ownership or authority epoch, invalidating
     * every approval and prepared command bound to the old one.
     * </pre>
     */
    default void advanceEpoch(dev.praxis.aiws.engine.v1.AdvanceEpochRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AdvanceEpochResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAdvanceEpochMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReloadConfig re-reads the `config.json` the server was started with, validates all
     * of it (a bad file changes nothing and fails with CONFIG_INVALID naming every problem
     * by its JSON path), then applies what can change live: webhook destinations and their
     * secrets, models, definition limits, the retention policy and the logging level. The
     * keys that cannot (database_url, serving, ...) are named in `restart_required`; their
     * old values stay in force. Every other server process of the installation (of
     * `--processes N`, and every replica on the same PostgreSQL database) re-reads its own
     * file within a second; the answer waits up to `wait_ms` for them and lists the
     * version each serves. Each reload that changes the version is recorded
     * (GetConfigStatus `reloads`): who, when, and the names of the changed keys, never a
     * value. Needs `admin.config` (a human only). SIGHUP to a server process does the same.
     * </pre>
     */
    default void reloadConfig(dev.praxis.aiws.engine.v1.ReloadConfigRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReloadConfigResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReloadConfigMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetConfigStatus answers the configuration version the installation last reloaded,
     * the version each server process serves, and the latest reloads. Needs `admin.read`.
     * </pre>
     */
    default void getConfigStatus(dev.praxis.aiws.engine.v1.GetConfigStatusRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetConfigStatusResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetConfigStatusMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service AdminService.
   * <pre>
   * AdminService holds the operator controls: work-order controls, holds and epochs.
   * Every RPC needs a principal granted the matching `admin.*` action. The engine never
   * changes controls, clears holds or advances epochs on its own.
   * </pre>
   */
  public static abstract class AdminServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return AdminServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service AdminService.
   * <pre>
   * AdminService holds the operator controls: work-order controls, holds and epochs.
   * Every RPC needs a principal granted the matching `admin.*` action. The engine never
   * changes controls, clears holds or advances epochs on its own.
   * </pre>
   */
  public static final class AdminServiceStub
      extends io.grpc.stub.AbstractAsyncStub<AdminServiceStub> {
    private AdminServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AdminServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AdminServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWorkOrder returns a work order's control state, epochs and holds.
     * </pre>
     */
    public void getWorkOrder(dev.praxis.aiws.engine.v1.GetWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWorkOrderResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetWorkOrderMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * PauseWorkOrder blocks commands and dispatch for a work order until resumed.
     * </pre>
     */
    public void pauseWorkOrder(dev.praxis.aiws.engine.v1.PauseWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PauseWorkOrderResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getPauseWorkOrderMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ResumeWorkOrder lifts a pause.
     * </pre>
     */
    public void resumeWorkOrder(dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getResumeWorkOrderMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CancelWorkOrder cancels a work order for good: its live runs are stopped and every
     * later command fails with WORK_ORDER_CANCELED.
     * </pre>
     */
    public void cancelWorkOrder(dev.praxis.aiws.engine.v1.CancelWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CancelWorkOrderResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCancelWorkOrderMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * PlaceHold places a restore hold (for example after restoring a backup) on the
     * installation or on one work order.
     * </pre>
     */
    public void placeHold(dev.praxis.aiws.engine.v1.PlaceHoldRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PlaceHoldResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getPlaceHoldMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ClearHold clears a restore or clock-uncertainty hold. Fails with HOLD_NOT_FOUND
     * when no such hold is placed.
     * </pre>
     */
    public void clearHold(dev.praxis.aiws.engine.v1.ClearHoldRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ClearHoldResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getClearHoldMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListHolds lists the holds currently placed.
     * </pre>
     */
    public void listHolds(dev.praxis.aiws.engine.v1.ListHoldsRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHoldsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListHoldsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * AdvanceEpoch increments a work order's ownership or authority epoch, invalidating
     * every approval and prepared command bound to the old one.
     * </pre>
     */
    public void advanceEpoch(dev.praxis.aiws.engine.v1.AdvanceEpochRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AdvanceEpochResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAdvanceEpochMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReloadConfig re-reads the `config.json` the server was started with, validates all
     * of it (a bad file changes nothing and fails with CONFIG_INVALID naming every problem
     * by its JSON path), then applies what can change live: webhook destinations and their
     * secrets, models, definition limits, the retention policy and the logging level. The
     * keys that cannot (database_url, serving, ...) are named in `restart_required`; their
     * old values stay in force. Every other server process of the installation (of
     * `--processes N`, and every replica on the same PostgreSQL database) re-reads its own
     * file within a second; the answer waits up to `wait_ms` for them and lists the
     * version each serves. Each reload that changes the version is recorded
     * (GetConfigStatus `reloads`): who, when, and the names of the changed keys, never a
     * value. Needs `admin.config` (a human only). SIGHUP to a server process does the same.
     * </pre>
     */
    public void reloadConfig(dev.praxis.aiws.engine.v1.ReloadConfigRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReloadConfigResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReloadConfigMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetConfigStatus answers the configuration version the installation last reloaded,
     * the version each server process serves, and the latest reloads. Needs `admin.read`.
     * </pre>
     */
    public void getConfigStatus(dev.praxis.aiws.engine.v1.GetConfigStatusRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetConfigStatusResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetConfigStatusMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service AdminService.
   * <pre>
   * AdminService holds the operator controls: work-order controls, holds and epochs.
   * Every RPC needs a principal granted the matching `admin.*` action. The engine never
   * changes controls, clears holds or advances epochs on its own.
   * </pre>
   */
  public static final class AdminServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<AdminServiceBlockingV2Stub> {
    private AdminServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AdminServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AdminServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWorkOrder returns a work order's control state, epochs and holds.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetWorkOrderResponse getWorkOrder(dev.praxis.aiws.engine.v1.GetWorkOrderRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * PauseWorkOrder blocks commands and dispatch for a work order until resumed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.PauseWorkOrderResponse pauseWorkOrder(dev.praxis.aiws.engine.v1.PauseWorkOrderRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getPauseWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeWorkOrder lifts a pause.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse resumeWorkOrder(dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getResumeWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CancelWorkOrder cancels a work order for good: its live runs are stopped and every
     * later command fails with WORK_ORDER_CANCELED.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CancelWorkOrderResponse cancelWorkOrder(dev.praxis.aiws.engine.v1.CancelWorkOrderRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCancelWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * PlaceHold places a restore hold (for example after restoring a backup) on the
     * installation or on one work order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.PlaceHoldResponse placeHold(dev.praxis.aiws.engine.v1.PlaceHoldRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getPlaceHoldMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ClearHold clears a restore or clock-uncertainty hold. Fails with HOLD_NOT_FOUND
     * when no such hold is placed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ClearHoldResponse clearHold(dev.praxis.aiws.engine.v1.ClearHoldRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getClearHoldMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListHolds lists the holds currently placed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListHoldsResponse listHolds(dev.praxis.aiws.engine.v1.ListHoldsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListHoldsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AdvanceEpoch increments a work order's ownership or authority epoch, invalidating
     * every approval and prepared command bound to the old one.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.AdvanceEpochResponse advanceEpoch(dev.praxis.aiws.engine.v1.AdvanceEpochRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getAdvanceEpochMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReloadConfig re-reads the `config.json` the server was started with, validates all
     * of it (a bad file changes nothing and fails with CONFIG_INVALID naming every problem
     * by its JSON path), then applies what can change live: webhook destinations and their
     * secrets, models, definition limits, the retention policy and the logging level. The
     * keys that cannot (database_url, serving, ...) are named in `restart_required`; their
     * old values stay in force. Every other server process of the installation (of
     * `--processes N`, and every replica on the same PostgreSQL database) re-reads its own
     * file within a second; the answer waits up to `wait_ms` for them and lists the
     * version each serves. Each reload that changes the version is recorded
     * (GetConfigStatus `reloads`): who, when, and the names of the changed keys, never a
     * value. Needs `admin.config` (a human only). SIGHUP to a server process does the same.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReloadConfigResponse reloadConfig(dev.praxis.aiws.engine.v1.ReloadConfigRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReloadConfigMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetConfigStatus answers the configuration version the installation last reloaded,
     * the version each server process serves, and the latest reloads. Needs `admin.read`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetConfigStatusResponse getConfigStatus(dev.praxis.aiws.engine.v1.GetConfigStatusRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetConfigStatusMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service AdminService.
   * <pre>
   * AdminService holds the operator controls: work-order controls, holds and epochs.
   * Every RPC needs a principal granted the matching `admin.*` action. The engine never
   * changes controls, clears holds or advances epochs on its own.
   * </pre>
   */
  public static final class AdminServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<AdminServiceBlockingStub> {
    private AdminServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AdminServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AdminServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWorkOrder returns a work order's control state, epochs and holds.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetWorkOrderResponse getWorkOrder(dev.praxis.aiws.engine.v1.GetWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * PauseWorkOrder blocks commands and dispatch for a work order until resumed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.PauseWorkOrderResponse pauseWorkOrder(dev.praxis.aiws.engine.v1.PauseWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getPauseWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeWorkOrder lifts a pause.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse resumeWorkOrder(dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getResumeWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CancelWorkOrder cancels a work order for good: its live runs are stopped and every
     * later command fails with WORK_ORDER_CANCELED.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CancelWorkOrderResponse cancelWorkOrder(dev.praxis.aiws.engine.v1.CancelWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCancelWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * PlaceHold places a restore hold (for example after restoring a backup) on the
     * installation or on one work order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.PlaceHoldResponse placeHold(dev.praxis.aiws.engine.v1.PlaceHoldRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getPlaceHoldMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ClearHold clears a restore or clock-uncertainty hold. Fails with HOLD_NOT_FOUND
     * when no such hold is placed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ClearHoldResponse clearHold(dev.praxis.aiws.engine.v1.ClearHoldRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getClearHoldMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListHolds lists the holds currently placed.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListHoldsResponse listHolds(dev.praxis.aiws.engine.v1.ListHoldsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListHoldsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AdvanceEpoch increments a work order's ownership or authority epoch, invalidating
     * every approval and prepared command bound to the old one.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.AdvanceEpochResponse advanceEpoch(dev.praxis.aiws.engine.v1.AdvanceEpochRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAdvanceEpochMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReloadConfig re-reads the `config.json` the server was started with, validates all
     * of it (a bad file changes nothing and fails with CONFIG_INVALID naming every problem
     * by its JSON path), then applies what can change live: webhook destinations and their
     * secrets, models, definition limits, the retention policy and the logging level. The
     * keys that cannot (database_url, serving, ...) are named in `restart_required`; their
     * old values stay in force. Every other server process of the installation (of
     * `--processes N`, and every replica on the same PostgreSQL database) re-reads its own
     * file within a second; the answer waits up to `wait_ms` for them and lists the
     * version each serves. Each reload that changes the version is recorded
     * (GetConfigStatus `reloads`): who, when, and the names of the changed keys, never a
     * value. Needs `admin.config` (a human only). SIGHUP to a server process does the same.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReloadConfigResponse reloadConfig(dev.praxis.aiws.engine.v1.ReloadConfigRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReloadConfigMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetConfigStatus answers the configuration version the installation last reloaded,
     * the version each server process serves, and the latest reloads. Needs `admin.read`.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetConfigStatusResponse getConfigStatus(dev.praxis.aiws.engine.v1.GetConfigStatusRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetConfigStatusMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service AdminService.
   * <pre>
   * AdminService holds the operator controls: work-order controls, holds and epochs.
   * Every RPC needs a principal granted the matching `admin.*` action. The engine never
   * changes controls, clears holds or advances epochs on its own.
   * </pre>
   */
  public static final class AdminServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<AdminServiceFutureStub> {
    private AdminServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AdminServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AdminServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * GetWorkOrder returns a work order's control state, epochs and holds.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetWorkOrderResponse> getWorkOrder(
        dev.praxis.aiws.engine.v1.GetWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetWorkOrderMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * PauseWorkOrder blocks commands and dispatch for a work order until resumed.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.PauseWorkOrderResponse> pauseWorkOrder(
        dev.praxis.aiws.engine.v1.PauseWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getPauseWorkOrderMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ResumeWorkOrder lifts a pause.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse> resumeWorkOrder(
        dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getResumeWorkOrderMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CancelWorkOrder cancels a work order for good: its live runs are stopped and every
     * later command fails with WORK_ORDER_CANCELED.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CancelWorkOrderResponse> cancelWorkOrder(
        dev.praxis.aiws.engine.v1.CancelWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCancelWorkOrderMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * PlaceHold places a restore hold (for example after restoring a backup) on the
     * installation or on one work order.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.PlaceHoldResponse> placeHold(
        dev.praxis.aiws.engine.v1.PlaceHoldRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getPlaceHoldMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ClearHold clears a restore or clock-uncertainty hold. Fails with HOLD_NOT_FOUND
     * when no such hold is placed.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ClearHoldResponse> clearHold(
        dev.praxis.aiws.engine.v1.ClearHoldRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getClearHoldMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListHolds lists the holds currently placed.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListHoldsResponse> listHolds(
        dev.praxis.aiws.engine.v1.ListHoldsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListHoldsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * AdvanceEpoch increments a work order's ownership or authority epoch, invalidating
     * every approval and prepared command bound to the old one.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.AdvanceEpochResponse> advanceEpoch(
        dev.praxis.aiws.engine.v1.AdvanceEpochRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAdvanceEpochMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReloadConfig re-reads the `config.json` the server was started with, validates all
     * of it (a bad file changes nothing and fails with CONFIG_INVALID naming every problem
     * by its JSON path), then applies what can change live: webhook destinations and their
     * secrets, models, definition limits, the retention policy and the logging level. The
     * keys that cannot (database_url, serving, ...) are named in `restart_required`; their
     * old values stay in force. Every other server process of the installation (of
     * `--processes N`, and every replica on the same PostgreSQL database) re-reads its own
     * file within a second; the answer waits up to `wait_ms` for them and lists the
     * version each serves. Each reload that changes the version is recorded
     * (GetConfigStatus `reloads`): who, when, and the names of the changed keys, never a
     * value. Needs `admin.config` (a human only). SIGHUP to a server process does the same.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ReloadConfigResponse> reloadConfig(
        dev.praxis.aiws.engine.v1.ReloadConfigRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReloadConfigMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetConfigStatus answers the configuration version the installation last reloaded,
     * the version each server process serves, and the latest reloads. Needs `admin.read`.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetConfigStatusResponse> getConfigStatus(
        dev.praxis.aiws.engine.v1.GetConfigStatusRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetConfigStatusMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_GET_WORK_ORDER = 0;
  private static final int METHODID_PAUSE_WORK_ORDER = 1;
  private static final int METHODID_RESUME_WORK_ORDER = 2;
  private static final int METHODID_CANCEL_WORK_ORDER = 3;
  private static final int METHODID_PLACE_HOLD = 4;
  private static final int METHODID_CLEAR_HOLD = 5;
  private static final int METHODID_LIST_HOLDS = 6;
  private static final int METHODID_ADVANCE_EPOCH = 7;
  private static final int METHODID_RELOAD_CONFIG = 8;
  private static final int METHODID_GET_CONFIG_STATUS = 9;

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
        case METHODID_GET_WORK_ORDER:
          serviceImpl.getWorkOrder((dev.praxis.aiws.engine.v1.GetWorkOrderRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWorkOrderResponse>) responseObserver);
          break;
        case METHODID_PAUSE_WORK_ORDER:
          serviceImpl.pauseWorkOrder((dev.praxis.aiws.engine.v1.PauseWorkOrderRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PauseWorkOrderResponse>) responseObserver);
          break;
        case METHODID_RESUME_WORK_ORDER:
          serviceImpl.resumeWorkOrder((dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse>) responseObserver);
          break;
        case METHODID_CANCEL_WORK_ORDER:
          serviceImpl.cancelWorkOrder((dev.praxis.aiws.engine.v1.CancelWorkOrderRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CancelWorkOrderResponse>) responseObserver);
          break;
        case METHODID_PLACE_HOLD:
          serviceImpl.placeHold((dev.praxis.aiws.engine.v1.PlaceHoldRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PlaceHoldResponse>) responseObserver);
          break;
        case METHODID_CLEAR_HOLD:
          serviceImpl.clearHold((dev.praxis.aiws.engine.v1.ClearHoldRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ClearHoldResponse>) responseObserver);
          break;
        case METHODID_LIST_HOLDS:
          serviceImpl.listHolds((dev.praxis.aiws.engine.v1.ListHoldsRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListHoldsResponse>) responseObserver);
          break;
        case METHODID_ADVANCE_EPOCH:
          serviceImpl.advanceEpoch((dev.praxis.aiws.engine.v1.AdvanceEpochRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.AdvanceEpochResponse>) responseObserver);
          break;
        case METHODID_RELOAD_CONFIG:
          serviceImpl.reloadConfig((dev.praxis.aiws.engine.v1.ReloadConfigRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReloadConfigResponse>) responseObserver);
          break;
        case METHODID_GET_CONFIG_STATUS:
          serviceImpl.getConfigStatus((dev.praxis.aiws.engine.v1.GetConfigStatusRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetConfigStatusResponse>) responseObserver);
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
          getGetWorkOrderMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetWorkOrderRequest,
              dev.praxis.aiws.engine.v1.GetWorkOrderResponse>(
                service, METHODID_GET_WORK_ORDER)))
        .addMethod(
          getPauseWorkOrderMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.PauseWorkOrderRequest,
              dev.praxis.aiws.engine.v1.PauseWorkOrderResponse>(
                service, METHODID_PAUSE_WORK_ORDER)))
        .addMethod(
          getResumeWorkOrderMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ResumeWorkOrderRequest,
              dev.praxis.aiws.engine.v1.ResumeWorkOrderResponse>(
                service, METHODID_RESUME_WORK_ORDER)))
        .addMethod(
          getCancelWorkOrderMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CancelWorkOrderRequest,
              dev.praxis.aiws.engine.v1.CancelWorkOrderResponse>(
                service, METHODID_CANCEL_WORK_ORDER)))
        .addMethod(
          getPlaceHoldMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.PlaceHoldRequest,
              dev.praxis.aiws.engine.v1.PlaceHoldResponse>(
                service, METHODID_PLACE_HOLD)))
        .addMethod(
          getClearHoldMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ClearHoldRequest,
              dev.praxis.aiws.engine.v1.ClearHoldResponse>(
                service, METHODID_CLEAR_HOLD)))
        .addMethod(
          getListHoldsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListHoldsRequest,
              dev.praxis.aiws.engine.v1.ListHoldsResponse>(
                service, METHODID_LIST_HOLDS)))
        .addMethod(
          getAdvanceEpochMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.AdvanceEpochRequest,
              dev.praxis.aiws.engine.v1.AdvanceEpochResponse>(
                service, METHODID_ADVANCE_EPOCH)))
        .addMethod(
          getReloadConfigMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ReloadConfigRequest,
              dev.praxis.aiws.engine.v1.ReloadConfigResponse>(
                service, METHODID_RELOAD_CONFIG)))
        .addMethod(
          getGetConfigStatusMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetConfigStatusRequest,
              dev.praxis.aiws.engine.v1.GetConfigStatusResponse>(
                service, METHODID_GET_CONFIG_STATUS)))
        .build();
  }

  private static abstract class AdminServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    AdminServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.Admin.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("AdminService");
    }
  }

  private static final class AdminServiceFileDescriptorSupplier
      extends AdminServiceBaseDescriptorSupplier {
    AdminServiceFileDescriptorSupplier() {}
  }

  private static final class AdminServiceMethodDescriptorSupplier
      extends AdminServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    AdminServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (AdminServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new AdminServiceFileDescriptorSupplier())
              .addMethod(getGetWorkOrderMethod())
              .addMethod(getPauseWorkOrderMethod())
              .addMethod(getResumeWorkOrderMethod())
              .addMethod(getCancelWorkOrderMethod())
              .addMethod(getPlaceHoldMethod())
              .addMethod(getClearHoldMethod())
              .addMethod(getListHoldsMethod())
              .addMethod(getAdvanceEpochMethod())
              .addMethod(getReloadConfigMethod())
              .addMethod(getGetConfigStatusMethod())
              .build();
        }
      }
    }
    return result;
  }
}
