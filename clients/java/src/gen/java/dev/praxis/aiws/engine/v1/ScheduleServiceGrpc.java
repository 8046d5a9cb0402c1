package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * ScheduleService keeps schedules: each starts runs of a registry ref's active
 * definition, or of an inline definition, at the times of a cron expression or a fixed
 * interval, in a time zone. The server's sweeper starts them; every start is idempotent
 * (its StartRun request id is `schedule:&lt;schedule_id&gt;:&lt;scheduled time ms&gt;`, under the
 * schedule's creator), so however many server processes or replicas serve the
 * installation, and across a crash, each scheduled time starts at most one run.
 * A schedule of a ref is governed, like a registry command: CreateSchedule needs a
 * human's approval of the exact material ReviewSchedule returns (CreateApproval of its
 * `material_digest`), consumed once. A schedule is never changed in place: delete it
 * and create another (a new schedule id) to change what it runs or when.
 * Grants: `schedule.manage` (create, pause, resume, delete, backfill) and
 * `schedule.read` on the schedule's work order; each start also needs the creator's
 * `run.start` there at the time it starts (a revoked creator's schedule starts nothing
 * and counts the times as failed).
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class ScheduleServiceGrpc {

  private ScheduleServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.ScheduleService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateScheduleRequest,
      dev.praxis.aiws.engine.v1.CreateScheduleResponse> getCreateScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateSchedule",
      requestType = dev.praxis.aiws.engine.v1.CreateScheduleRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CreateScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateScheduleRequest,
      dev.praxis.aiws.engine.v1.CreateScheduleResponse> getCreateScheduleMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateScheduleRequest, dev.praxis.aiws.engine.v1.CreateScheduleResponse> getCreateScheduleMethod;
    if ((getCreateScheduleMethod = ScheduleServiceGrpc.getCreateScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getCreateScheduleMethod = ScheduleServiceGrpc.getCreateScheduleMethod) == null) {
          ScheduleServiceGrpc.getCreateScheduleMethod = getCreateScheduleMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CreateScheduleRequest, dev.praxis.aiws.engine.v1.CreateScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("CreateSchedule"))
              .build();
        }
      }
    }
    return getCreateScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewScheduleRequest,
      dev.praxis.aiws.engine.v1.ReviewScheduleResponse> getReviewScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReviewSchedule",
      requestType = dev.praxis.aiws.engine.v1.ReviewScheduleRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ReviewScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewScheduleRequest,
      dev.praxis.aiws.engine.v1.ReviewScheduleResponse> getReviewScheduleMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ReviewScheduleRequest, dev.praxis.aiws.engine.v1.ReviewScheduleResponse> getReviewScheduleMethod;
    if ((getReviewScheduleMethod = ScheduleServiceGrpc.getReviewScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getReviewScheduleMethod = ScheduleServiceGrpc.getReviewScheduleMethod) == null) {
          ScheduleServiceGrpc.getReviewScheduleMethod = getReviewScheduleMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ReviewScheduleRequest, dev.praxis.aiws.engine.v1.ReviewScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReviewSchedule"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ReviewScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("ReviewSchedule"))
              .build();
        }
      }
    }
    return getReviewScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetScheduleRequest,
      dev.praxis.aiws.engine.v1.GetScheduleResponse> getGetScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetSchedule",
      requestType = dev.praxis.aiws.engine.v1.GetScheduleRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetScheduleRequest,
      dev.praxis.aiws.engine.v1.GetScheduleResponse> getGetScheduleMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetScheduleRequest, dev.praxis.aiws.engine.v1.GetScheduleResponse> getGetScheduleMethod;
    if ((getGetScheduleMethod = ScheduleServiceGrpc.getGetScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getGetScheduleMethod = ScheduleServiceGrpc.getGetScheduleMethod) == null) {
          ScheduleServiceGrpc.getGetScheduleMethod = getGetScheduleMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetScheduleRequest, dev.praxis.aiws.engine.v1.GetScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetSchedule"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("GetSchedule"))
              .build();
        }
      }
    }
    return getGetScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListSchedulesRequest,
      dev.praxis.aiws.engine.v1.ListSchedulesResponse> getListSchedulesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListSchedules",
      requestType = dev.praxis.aiws.engine.v1.ListSchedulesRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListSchedulesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListSchedulesRequest,
      dev.praxis.aiws.engine.v1.ListSchedulesResponse> getListSchedulesMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListSchedulesRequest, dev.praxis.aiws.engine.v1.ListSchedulesResponse> getListSchedulesMethod;
    if ((getListSchedulesMethod = ScheduleServiceGrpc.getListSchedulesMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getListSchedulesMethod = ScheduleServiceGrpc.getListSchedulesMethod) == null) {
          ScheduleServiceGrpc.getListSchedulesMethod = getListSchedulesMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListSchedulesRequest, dev.praxis.aiws.engine.v1.ListSchedulesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListSchedules"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListSchedulesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListSchedulesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("ListSchedules"))
              .build();
        }
      }
    }
    return getListSchedulesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PauseScheduleRequest,
      dev.praxis.aiws.engine.v1.PauseScheduleResponse> getPauseScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "PauseSchedule",
      requestType = dev.praxis.aiws.engine.v1.PauseScheduleRequest.class,
      responseType = dev.praxis.aiws.engine.v1.PauseScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PauseScheduleRequest,
      dev.praxis.aiws.engine.v1.PauseScheduleResponse> getPauseScheduleMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.PauseScheduleRequest, dev.praxis.aiws.engine.v1.PauseScheduleResponse> getPauseScheduleMethod;
    if ((getPauseScheduleMethod = ScheduleServiceGrpc.getPauseScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getPauseScheduleMethod = ScheduleServiceGrpc.getPauseScheduleMethod) == null) {
          ScheduleServiceGrpc.getPauseScheduleMethod = getPauseScheduleMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.PauseScheduleRequest, dev.praxis.aiws.engine.v1.PauseScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "PauseSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.PauseScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.PauseScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("PauseSchedule"))
              .build();
        }
      }
    }
    return getPauseScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeScheduleRequest,
      dev.praxis.aiws.engine.v1.ResumeScheduleResponse> getResumeScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ResumeSchedule",
      requestType = dev.praxis.aiws.engine.v1.ResumeScheduleRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ResumeScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeScheduleRequest,
      dev.praxis.aiws.engine.v1.ResumeScheduleResponse> getResumeScheduleMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ResumeScheduleRequest, dev.praxis.aiws.engine.v1.ResumeScheduleResponse> getResumeScheduleMethod;
    if ((getResumeScheduleMethod = ScheduleServiceGrpc.getResumeScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getResumeScheduleMethod = ScheduleServiceGrpc.getResumeScheduleMethod) == null) {
          ScheduleServiceGrpc.getResumeScheduleMethod = getResumeScheduleMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ResumeScheduleRequest, dev.praxis.aiws.engine.v1.ResumeScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ResumeSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ResumeScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ResumeScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("ResumeSchedule"))
              .build();
        }
      }
    }
    return getResumeScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.DeleteScheduleRequest,
      dev.praxis.aiws.engine.v1.DeleteScheduleResponse> getDeleteScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteSchedule",
      requestType = dev.praxis.aiws.engine.v1.DeleteScheduleRequest.class,
      responseType = dev.praxis.aiws.engine.v1.DeleteScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.DeleteScheduleRequest,
      dev.praxis.aiws.engine.v1.DeleteScheduleResponse> getDeleteScheduleMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.DeleteScheduleRequest, dev.praxis.aiws.engine.v1.DeleteScheduleResponse> getDeleteScheduleMethod;
    if ((getDeleteScheduleMethod = ScheduleServiceGrpc.getDeleteScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getDeleteScheduleMethod = ScheduleServiceGrpc.getDeleteScheduleMethod) == null) {
          ScheduleServiceGrpc.getDeleteScheduleMethod = getDeleteScheduleMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.DeleteScheduleRequest, dev.praxis.aiws.engine.v1.DeleteScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.DeleteScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.DeleteScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("DeleteSchedule"))
              .build();
        }
      }
    }
    return getDeleteScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.BackfillScheduleRequest,
      dev.praxis.aiws.engine.v1.BackfillScheduleResponse> getBackfillScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "BackfillSchedule",
      requestType = dev.praxis.aiws.engine.v1.BackfillScheduleRequest.class,
      responseType = dev.praxis.aiws.engine.v1.BackfillScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.BackfillScheduleRequest,
      dev.praxis.aiws.engine.v1.BackfillScheduleResponse> getBackfillScheduleMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.BackfillScheduleRequest, dev.praxis.aiws.engine.v1.BackfillScheduleResponse> getBackfillScheduleMethod;
    if ((getBackfillScheduleMethod = ScheduleServiceGrpc.getBackfillScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getBackfillScheduleMethod = ScheduleServiceGrpc.getBackfillScheduleMethod) == null) {
          ScheduleServiceGrpc.getBackfillScheduleMethod = getBackfillScheduleMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.BackfillScheduleRequest, dev.praxis.aiws.engine.v1.BackfillScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "BackfillSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.BackfillScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.BackfillScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("BackfillSchedule"))
              .build();
        }
      }
    }
    return getBackfillScheduleMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ScheduleServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceStub>() {
        @java.lang.Override
        public ScheduleServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ScheduleServiceStub(channel, callOptions);
        }
      };
    return ScheduleServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static ScheduleServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceBlockingV2Stub>() {
        @java.lang.Override
        public ScheduleServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ScheduleServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return ScheduleServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ScheduleServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceBlockingStub>() {
        @java.lang.Override
        public ScheduleServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ScheduleServiceBlockingStub(channel, callOptions);
        }
      };
    return ScheduleServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ScheduleServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceFutureStub>() {
        @java.lang.Override
        public ScheduleServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ScheduleServiceFutureStub(channel, callOptions);
        }
      };
    return ScheduleServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * ScheduleService keeps schedules: each starts runs of a registry ref's active
   * definition, or of an inline definition, at the times of a cron expression or a fixed
   * interval, in a time zone. The server's sweeper starts them; every start is idempotent
   * (its StartRun request id is `schedule:&lt;schedule_id&gt;:&lt;scheduled time ms&gt;`, under the
   * schedule's creator), so however many server processes or replicas serve the
   * installation, and across a crash, each scheduled time starts at most one run.
   * A schedule of a ref is governed, like a registry command: CreateSchedule needs a
   * human's approval of the exact material ReviewSchedule returns (CreateApproval of its
   * `material_digest`), consumed once. A schedule is never changed in place: delete it
   * and create another (a new schedule id) to change what it runs or when.
   * Grants: `schedule.manage` (create, pause, resume, delete, backfill) and
   * `schedule.read` on the schedule's work order; each start also needs the creator's
   * `run.start` there at the time it starts (a revoked creator's schedule starts nothing
   * and counts the times as failed).
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * CreateSchedule creates a schedule. The `schedule_id` is the idempotency key: the
     * same creator repeating the same spec gets the schedule, in whatever state it is now
     * (deleted too), with `replayed = true`; another spec or creator under a taken id
     * (a deleted schedule's too) fails with SCHEDULE_EXISTS (ALREADY_EXISTS). A schedule of a ref needs `approval_id`: without
     * it APPROVAL_REQUIRED (FAILED_PRECONDITION); an approval of other material fails
     * with APPROVAL_MISMATCH. Nothing is written by a refused call.
     * </pre>
     */
    default void createSchedule(dev.praxis.aiws.engine.v1.CreateScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReviewSchedule returns the exact material a human approves before a schedule of a
     * ref is created, and its digest. It writes nothing.
     * </pre>
     */
    default void reviewSchedule(dev.praxis.aiws.engine.v1.ReviewScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReviewScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule (a deleted one too, with state DELETED).
     * </pre>
     */
    default void getSchedule(dev.praxis.aiws.engine.v1.GetScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListSchedules pages through schedules in schedule id order.
     * </pre>
     */
    default void listSchedules(dev.praxis.aiws.engine.v1.ListSchedulesRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListSchedulesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListSchedulesMethod(), responseObserver);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's starts until it is resumed; the times that fall
     * while it is paused are never started (not even by the catch-up window). Pausing a
     * paused schedule answers it unchanged.
     * </pre>
     */
    default void pauseSchedule(dev.praxis.aiws.engine.v1.PauseScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PauseScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getPauseScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * ResumeSchedule starts a paused schedule again from its next time after now.
     * Resuming an active schedule answers it unchanged.
     * </pre>
     */
    default void resumeSchedule(dev.praxis.aiws.engine.v1.ResumeScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getResumeScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteSchedule ends a schedule for good: it starts nothing more, and its id stays
     * taken. Its runs are not touched. Deleting a deleted schedule answers it unchanged.
     * </pre>
     */
    default void deleteSchedule(dev.praxis.aiws.engine.v1.DeleteScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.DeleteScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * BackfillSchedule starts, now, one run for each of the schedule's times in a past
     * range, whatever its overlap policy, with the same idempotent request ids as its
     * own starts: a time already started (by the schedule or an earlier backfill) starts
     * nothing again.
     * </pre>
     */
    default void backfillSchedule(dev.praxis.aiws.engine.v1.BackfillScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.BackfillScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getBackfillScheduleMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service ScheduleService.
   * <pre>
   * ScheduleService keeps schedules: each starts runs of a registry ref's active
   * definition, or of an inline definition, at the times of a cron expression or a fixed
   * interval, in a time zone. The server's sweeper starts them; every start is idempotent
   * (its StartRun request id is `schedule:&lt;schedule_id&gt;:&lt;scheduled time ms&gt;`, under the
   * schedule's creator), so however many server processes or replicas serve the
   * installation, and across a crash, each scheduled time starts at most one run.
   * A schedule of a ref is governed, like a registry command: CreateSchedule needs a
   * human's approval of the exact material ReviewSchedule returns (CreateApproval of its
   * `material_digest`), consumed once. A schedule is never changed in place: delete it
   * and create another (a new schedule id) to change what it runs or when.
   * Grants: `schedule.manage` (create, pause, resume, delete, backfill) and
   * `schedule.read` on the schedule's work order; each start also needs the creator's
   * `run.start` there at the time it starts (a revoked creator's schedule starts nothing
   * and counts the times as failed).
   * </pre>
   */
  public static abstract class ScheduleServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return ScheduleServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service ScheduleService.
   * <pre>
   * ScheduleService keeps schedules: each starts runs of a registry ref's active
   * definition, or of an inline definition, at the times of a cron expression or a fixed
   * interval, in a time zone. The server's sweeper starts them; every start is idempotent
   * (its StartRun request id is `schedule:&lt;schedule_id&gt;:&lt;scheduled time ms&gt;`, under the
   * schedule's creator), so however many server processes or replicas serve the
   * installation, and across a crash, each scheduled time starts at most one run.
   * A schedule of a ref is governed, like a registry command: CreateSchedule needs a
   * human's approval of the exact material ReviewSchedule returns (CreateApproval of its
   * `material_digest`), consumed once. A schedule is never changed in place: delete it
   * and create another (a new schedule id) to change what it runs or when.
   * Grants: `schedule.manage` (create, pause, resume, delete, backfill) and
   * `schedule.read` on the schedule's work order; each start also needs the creator's
   * `run.start` there at the time it starts (a revoked creator's schedule starts nothing
   * and counts the times as failed).
   * </pre>
   */
  public static final class ScheduleServiceStub
      extends io.grpc.stub.AbstractAsyncStub<ScheduleServiceStub> {
    private ScheduleServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ScheduleServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ScheduleServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSchedule creates a schedule. The `schedule_id` is the idempotency key: the
     * same creator repeating the same spec gets the schedule, in whatever state it is now
     * (deleted too), with `replayed = true`; another spec or creator under a taken id
     * (a deleted schedule's too) fails with SCHEDULE_EXISTS (ALREADY_EXISTS). A schedule of a ref needs `approval_id`: without
     * it APPROVAL_REQUIRED (FAILED_PRECONDITION); an approval of other material fails
     * with APPROVAL_MISMATCH. Nothing is written by a refused call.
     * </pre>
     */
    public void createSchedule(dev.praxis.aiws.engine.v1.CreateScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReviewSchedule returns the exact material a human approves before a schedule of a
     * ref is created, and its digest. It writes nothing.
     * </pre>
     */
    public void reviewSchedule(dev.praxis.aiws.engine.v1.ReviewScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReviewScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule (a deleted one too, with state DELETED).
     * </pre>
     */
    public void getSchedule(dev.praxis.aiws.engine.v1.GetScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListSchedules pages through schedules in schedule id order.
     * </pre>
     */
    public void listSchedules(dev.praxis.aiws.engine.v1.ListSchedulesRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListSchedulesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListSchedulesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's starts until it is resumed; the times that fall
     * while it is paused are never started (not even by the catch-up window). Pausing a
     * paused schedule answers it unchanged.
     * </pre>
     */
    public void pauseSchedule(dev.praxis.aiws.engine.v1.PauseScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PauseScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getPauseScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ResumeSchedule starts a paused schedule again from its next time after now.
     * Resuming an active schedule answers it unchanged.
     * </pre>
     */
    public void resumeSchedule(dev.praxis.aiws.engine.v1.ResumeScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getResumeScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteSchedule ends a schedule for good: it starts nothing more, and its id stays
     * taken. Its runs are not touched. Deleting a deleted schedule answers it unchanged.
     * </pre>
     */
    public void deleteSchedule(dev.praxis.aiws.engine.v1.DeleteScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.DeleteScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * BackfillSchedule starts, now, one run for each of the schedule's times in a past
     * range, whatever its overlap policy, with the same idempotent request ids as its
     * own starts: a time already started (by the schedule or an earlier backfill) starts
     * nothing again.
     * </pre>
     */
    public void backfillSchedule(dev.praxis.aiws.engine.v1.BackfillScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.BackfillScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getBackfillScheduleMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service ScheduleService.
   * <pre>
   * ScheduleService keeps schedules: each starts runs of a registry ref's active
   * definition, or of an inline definition, at the times of a cron expression or a fixed
   * interval, in a time zone. The server's sweeper starts them; every start is idempotent
   * (its StartRun request id is `schedule:&lt;schedule_id&gt;:&lt;scheduled time ms&gt;`, under the
   * schedule's creator), so however many server processes or replicas serve the
   * installation, and across a crash, each scheduled time starts at most one run.
   * A schedule of a ref is governed, like a registry command: CreateSchedule needs a
   * human's approval of the exact material ReviewSchedule returns (CreateApproval of its
   * `material_digest`), consumed once. A schedule is never changed in place: delete it
   * and create another (a new schedule id) to change what it runs or when.
   * Grants: `schedule.manage` (create, pause, resume, delete, backfill) and
   * `schedule.read` on the schedule's work order; each start also needs the creator's
   * `run.start` there at the time it starts (a revoked creator's schedule starts nothing
   * and counts the times as failed).
   * </pre>
   */
  public static final class ScheduleServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<ScheduleServiceBlockingV2Stub> {
    private ScheduleServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ScheduleServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ScheduleServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSchedule creates a schedule. The `schedule_id` is the idempotency key: the
     * same creator repeating the same spec gets the schedule, in whatever state it is now
     * (deleted too), with `replayed = true`; another spec or creator under a taken id
     * (a deleted schedule's too) fails with SCHEDULE_EXISTS (ALREADY_EXISTS). A schedule of a ref needs `approval_id`: without
     * it APPROVAL_REQUIRED (FAILED_PRECONDITION); an approval of other material fails
     * with APPROVAL_MISMATCH. Nothing is written by a refused call.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateScheduleResponse createSchedule(dev.praxis.aiws.engine.v1.CreateScheduleRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewSchedule returns the exact material a human approves before a schedule of a
     * ref is created, and its digest. It writes nothing.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewScheduleResponse reviewSchedule(dev.praxis.aiws.engine.v1.ReviewScheduleRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReviewScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule (a deleted one too, with state DELETED).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetScheduleResponse getSchedule(dev.praxis.aiws.engine.v1.GetScheduleRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListSchedules pages through schedules in schedule id order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListSchedulesResponse listSchedules(dev.praxis.aiws.engine.v1.ListSchedulesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListSchedulesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's starts until it is resumed; the times that fall
     * while it is paused are never started (not even by the catch-up window). Pausing a
     * paused schedule answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.PauseScheduleResponse pauseSchedule(dev.praxis.aiws.engine.v1.PauseScheduleRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getPauseScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeSchedule starts a paused schedule again from its next time after now.
     * Resuming an active schedule answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ResumeScheduleResponse resumeSchedule(dev.praxis.aiws.engine.v1.ResumeScheduleRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getResumeScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteSchedule ends a schedule for good: it starts nothing more, and its id stays
     * taken. Its runs are not touched. Deleting a deleted schedule answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.DeleteScheduleResponse deleteSchedule(dev.praxis.aiws.engine.v1.DeleteScheduleRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDeleteScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * BackfillSchedule starts, now, one run for each of the schedule's times in a past
     * range, whatever its overlap policy, with the same idempotent request ids as its
     * own starts: a time already started (by the schedule or an earlier backfill) starts
     * nothing again.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.BackfillScheduleResponse backfillSchedule(dev.praxis.aiws.engine.v1.BackfillScheduleRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getBackfillScheduleMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service ScheduleService.
   * <pre>
   * ScheduleService keeps schedules: each starts runs of a registry ref's active
   * definition, or of an inline definition, at the times of a cron expression or a fixed
   * interval, in a time zone. The server's sweeper starts them; every start is idempotent
   * (its StartRun request id is `schedule:&lt;schedule_id&gt;:&lt;scheduled time ms&gt;`, under the
   * schedule's creator), so however many server processes or replicas serve the
   * installation, and across a crash, each scheduled time starts at most one run.
   * A schedule of a ref is governed, like a registry command: CreateSchedule needs a
   * human's approval of the exact material ReviewSchedule returns (CreateApproval of its
   * `material_digest`), consumed once. A schedule is never changed in place: delete it
   * and create another (a new schedule id) to change what it runs or when.
   * Grants: `schedule.manage` (create, pause, resume, delete, backfill) and
   * `schedule.read` on the schedule's work order; each start also needs the creator's
   * `run.start` there at the time it starts (a revoked creator's schedule starts nothing
   * and counts the times as failed).
   * </pre>
   */
  public static final class ScheduleServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<ScheduleServiceBlockingStub> {
    private ScheduleServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ScheduleServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ScheduleServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSchedule creates a schedule. The `schedule_id` is the idempotency key: the
     * same creator repeating the same spec gets the schedule, in whatever state it is now
     * (deleted too), with `replayed = true`; another spec or creator under a taken id
     * (a deleted schedule's too) fails with SCHEDULE_EXISTS (ALREADY_EXISTS). A schedule of a ref needs `approval_id`: without
     * it APPROVAL_REQUIRED (FAILED_PRECONDITION); an approval of other material fails
     * with APPROVAL_MISMATCH. Nothing is written by a refused call.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateScheduleResponse createSchedule(dev.praxis.aiws.engine.v1.CreateScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReviewSchedule returns the exact material a human approves before a schedule of a
     * ref is created, and its digest. It writes nothing.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ReviewScheduleResponse reviewSchedule(dev.praxis.aiws.engine.v1.ReviewScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReviewScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule (a deleted one too, with state DELETED).
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetScheduleResponse getSchedule(dev.praxis.aiws.engine.v1.GetScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListSchedules pages through schedules in schedule id order.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListSchedulesResponse listSchedules(dev.praxis.aiws.engine.v1.ListSchedulesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListSchedulesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's starts until it is resumed; the times that fall
     * while it is paused are never started (not even by the catch-up window). Pausing a
     * paused schedule answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.PauseScheduleResponse pauseSchedule(dev.praxis.aiws.engine.v1.PauseScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getPauseScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeSchedule starts a paused schedule again from its next time after now.
     * Resuming an active schedule answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ResumeScheduleResponse resumeSchedule(dev.praxis.aiws.engine.v1.ResumeScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getResumeScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteSchedule ends a schedule for good: it starts nothing more, and its id stays
     * taken. Its runs are not touched. Deleting a deleted schedule answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.DeleteScheduleResponse deleteSchedule(dev.praxis.aiws.engine.v1.DeleteScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * BackfillSchedule starts, now, one run for each of the schedule's times in a past
     * range, whatever its overlap policy, with the same idempotent request ids as its
     * own starts: a time already started (by the schedule or an earlier backfill) starts
     * nothing again.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.BackfillScheduleResponse backfillSchedule(dev.praxis.aiws.engine.v1.BackfillScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getBackfillScheduleMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service ScheduleService.
   * <pre>
   * ScheduleService keeps schedules: each starts runs of a registry ref's active
   * definition, or of an inline definition, at the times of a cron expression or a fixed
   * interval, in a time zone. The server's sweeper starts them; every start is idempotent
   * (its StartRun request id is `schedule:&lt;schedule_id&gt;:&lt;scheduled time ms&gt;`, under the
   * schedule's creator), so however many server processes or replicas serve the
   * installation, and across a crash, each scheduled time starts at most one run.
   * A schedule of a ref is governed, like a registry command: CreateSchedule needs a
   * human's approval of the exact material ReviewSchedule returns (CreateApproval of its
   * `material_digest`), consumed once. A schedule is never changed in place: delete it
   * and create another (a new schedule id) to change what it runs or when.
   * Grants: `schedule.manage` (create, pause, resume, delete, backfill) and
   * `schedule.read` on the schedule's work order; each start also needs the creator's
   * `run.start` there at the time it starts (a revoked creator's schedule starts nothing
   * and counts the times as failed).
   * </pre>
   */
  public static final class ScheduleServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<ScheduleServiceFutureStub> {
    private ScheduleServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ScheduleServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ScheduleServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSchedule creates a schedule. The `schedule_id` is the idempotency key: the
     * same creator repeating the same spec gets the schedule, in whatever state it is now
     * (deleted too), with `replayed = true`; another spec or creator under a taken id
     * (a deleted schedule's too) fails with SCHEDULE_EXISTS (ALREADY_EXISTS). A schedule of a ref needs `approval_id`: without
     * it APPROVAL_REQUIRED (FAILED_PRECONDITION); an approval of other material fails
     * with APPROVAL_MISMATCH. Nothing is written by a refused call.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CreateScheduleResponse> createSchedule(
        dev.praxis.aiws.engine.v1.CreateScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReviewSchedule returns the exact material a human approves before a schedule of a
     * ref is created, and its digest. It writes nothing.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ReviewScheduleResponse> reviewSchedule(
        dev.praxis.aiws.engine.v1.ReviewScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReviewScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule (a deleted one too, with state DELETED).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetScheduleResponse> getSchedule(
        dev.praxis.aiws.engine.v1.GetScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListSchedules pages through schedules in schedule id order.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListSchedulesResponse> listSchedules(
        dev.praxis.aiws.engine.v1.ListSchedulesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListSchedulesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's starts until it is resumed; the times that fall
     * while it is paused are never started (not even by the catch-up window). Pausing a
     * paused schedule answers it unchanged.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.PauseScheduleResponse> pauseSchedule(
        dev.praxis.aiws.engine.v1.PauseScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getPauseScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ResumeSchedule starts a paused schedule again from its next time after now.
     * Resuming an active schedule answers it unchanged.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ResumeScheduleResponse> resumeSchedule(
        dev.praxis.aiws.engine.v1.ResumeScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getResumeScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteSchedule ends a schedule for good: it starts nothing more, and its id stays
     * taken. Its runs are not touched. Deleting a deleted schedule answers it unchanged.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.DeleteScheduleResponse> deleteSchedule(
        dev.praxis.aiws.engine.v1.DeleteScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * BackfillSchedule starts, now, one run for each of the schedule's times in a past
     * range, whatever its overlap policy, with the same idempotent request ids as its
     * own starts: a time already started (by the schedule or an earlier backfill) starts
     * nothing again.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.BackfillScheduleResponse> backfillSchedule(
        dev.praxis.aiws.engine.v1.BackfillScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getBackfillScheduleMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_SCHEDULE = 0;
  private static final int METHODID_REVIEW_SCHEDULE = 1;
  private static final int METHODID_GET_SCHEDULE = 2;
  private static final int METHODID_LIST_SCHEDULES = 3;
  private static final int METHODID_PAUSE_SCHEDULE = 4;
  private static final int METHODID_RESUME_SCHEDULE = 5;
  private static final int METHODID_DELETE_SCHEDULE = 6;
  private static final int METHODID_BACKFILL_SCHEDULE = 7;

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
        case METHODID_CREATE_SCHEDULE:
          serviceImpl.createSchedule((dev.praxis.aiws.engine.v1.CreateScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateScheduleResponse>) responseObserver);
          break;
        case METHODID_REVIEW_SCHEDULE:
          serviceImpl.reviewSchedule((dev.praxis.aiws.engine.v1.ReviewScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ReviewScheduleResponse>) responseObserver);
          break;
        case METHODID_GET_SCHEDULE:
          serviceImpl.getSchedule((dev.praxis.aiws.engine.v1.GetScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetScheduleResponse>) responseObserver);
          break;
        case METHODID_LIST_SCHEDULES:
          serviceImpl.listSchedules((dev.praxis.aiws.engine.v1.ListSchedulesRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListSchedulesResponse>) responseObserver);
          break;
        case METHODID_PAUSE_SCHEDULE:
          serviceImpl.pauseSchedule((dev.praxis.aiws.engine.v1.PauseScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.PauseScheduleResponse>) responseObserver);
          break;
        case METHODID_RESUME_SCHEDULE:
          serviceImpl.resumeSchedule((dev.praxis.aiws.engine.v1.ResumeScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ResumeScheduleResponse>) responseObserver);
          break;
        case METHODID_DELETE_SCHEDULE:
          serviceImpl.deleteSchedule((dev.praxis.aiws.engine.v1.DeleteScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.DeleteScheduleResponse>) responseObserver);
          break;
        case METHODID_BACKFILL_SCHEDULE:
          serviceImpl.backfillSchedule((dev.praxis.aiws.engine.v1.BackfillScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.BackfillScheduleResponse>) responseObserver);
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
          getCreateScheduleMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CreateScheduleRequest,
              dev.praxis.aiws.engine.v1.CreateScheduleResponse>(
                service, METHODID_CREATE_SCHEDULE)))
        .addMethod(
          getReviewScheduleMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ReviewScheduleRequest,
              dev.praxis.aiws.engine.v1.ReviewScheduleResponse>(
                service, METHODID_REVIEW_SCHEDULE)))
        .addMethod(
          getGetScheduleMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetScheduleRequest,
              dev.praxis.aiws.engine.v1.GetScheduleResponse>(
                service, METHODID_GET_SCHEDULE)))
        .addMethod(
          getListSchedulesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListSchedulesRequest,
              dev.praxis.aiws.engine.v1.ListSchedulesResponse>(
                service, METHODID_LIST_SCHEDULES)))
        .addMethod(
          getPauseScheduleMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.PauseScheduleRequest,
              dev.praxis.aiws.engine.v1.PauseScheduleResponse>(
                service, METHODID_PAUSE_SCHEDULE)))
        .addMethod(
          getResumeScheduleMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ResumeScheduleRequest,
              dev.praxis.aiws.engine.v1.ResumeScheduleResponse>(
                service, METHODID_RESUME_SCHEDULE)))
        .addMethod(
          getDeleteScheduleMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.DeleteScheduleRequest,
              dev.praxis.aiws.engine.v1.DeleteScheduleResponse>(
                service, METHODID_DELETE_SCHEDULE)))
        .addMethod(
          getBackfillScheduleMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.BackfillScheduleRequest,
              dev.praxis.aiws.engine.v1.BackfillScheduleResponse>(
                service, METHODID_BACKFILL_SCHEDULE)))
        .build();
  }

  private static abstract class ScheduleServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ScheduleServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.ScheduleOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("ScheduleService");
    }
  }

  private static final class ScheduleServiceFileDescriptorSupplier
      extends ScheduleServiceBaseDescriptorSupplier {
    ScheduleServiceFileDescriptorSupplier() {}
  }

  private static final class ScheduleServiceMethodDescriptorSupplier
      extends ScheduleServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    ScheduleServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (ScheduleServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ScheduleServiceFileDescriptorSupplier())
              .addMethod(getCreateScheduleMethod())
              .addMethod(getReviewScheduleMethod())
              .addMethod(getGetScheduleMethod())
              .addMethod(getListSchedulesMethod())
              .addMethod(getPauseScheduleMethod())
              .addMethod(getResumeScheduleMethod())
              .addMethod(getDeleteScheduleMethod())
              .addMethod(getBackfillScheduleMethod())
              .build();
        }
      }
    }
    return result;
  }
}
