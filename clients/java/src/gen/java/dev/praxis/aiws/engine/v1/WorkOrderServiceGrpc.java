package dev.praxis.aiws.engine.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * WorkOrderService keeps work orders as records and as a tree. Every run belongs to one
 * work order; a work order may have a parent, and then it inherits its parent's
 * controls:
 * - pausing or cancelling a work order (AdminService) pauses or cancels every
 *   descendant's runs; a descendant resumes only when every ancestor is resumed
 *   (a resume of a work order paused by an ancestor fails with
 *   WORK_ORDER_CONTROL_INHERITED);
 * - a hold placed on a work order (AdminService.PlaceHold) holds its whole subtree;
 * - a child's `actions` narrow its parent's, never widen them: an action outside the
 *   work order's actions (or any ancestor's) is refused in it with ACTION_NOT_GRANTED,
 *   whatever the caller's grants;
 * - a child's budget is carved from its parent's: every cost an attempt reports is
 *   charged to its run's work order and to each of its ancestors, and an attempt is
 *   not dispatched (its node fails with BUDGET_EXCEEDED) when it would spend beyond
 *   what any of them has left. Amounts are exact decimal microcredits.
 * Limits: a tree is at most 8 levels deep (a root is depth 0, so depth &lt;= 7:
 * WORK_ORDER_TOO_DEEP past it) and a work order has at most 1,000 children
 * (WORK_ORDER_TOO_MANY_CHILDREN). A work order that only runs or controls have named
 * (never created here) is a root record with an empty creator.
 * Grants: `work_order.create` on the parent (for a root, on the new work order) to
 * create; `work_order.read` on a work order to read it and list its children;
 * `work_order.close` on it to close it. Creating a work order is a human's or a
 * service's decision: an agent is refused with HUMAN_REQUIRED. An agent proposes a child
 * instead (`work_order.propose` on the parent): it is recorded PROPOSED, admits no run,
 * resume or child (WORK_ORDER_NOT_APPROVED), and waits for a human
 * (`work_order.decide` on the parent, a human-only action) to approve it (OPEN) or
 * decline it with a reason (DECLINED, final).
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class WorkOrderServiceGrpc {

  private WorkOrderServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "aiws.engine.v1.WorkOrderService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateWorkOrderRequest,
      dev.praxis.aiws.engine.v1.CreateWorkOrderResponse> getCreateWorkOrderMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateWorkOrder",
      requestType = dev.praxis.aiws.engine.v1.CreateWorkOrderRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CreateWorkOrderResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateWorkOrderRequest,
      dev.praxis.aiws.engine.v1.CreateWorkOrderResponse> getCreateWorkOrderMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CreateWorkOrderRequest, dev.praxis.aiws.engine.v1.CreateWorkOrderResponse> getCreateWorkOrderMethod;
    if ((getCreateWorkOrderMethod = WorkOrderServiceGrpc.getCreateWorkOrderMethod) == null) {
      synchronized (WorkOrderServiceGrpc.class) {
        if ((getCreateWorkOrderMethod = WorkOrderServiceGrpc.getCreateWorkOrderMethod) == null) {
          WorkOrderServiceGrpc.getCreateWorkOrderMethod = getCreateWorkOrderMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CreateWorkOrderRequest, dev.praxis.aiws.engine.v1.CreateWorkOrderResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateWorkOrder"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateWorkOrderRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CreateWorkOrderResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WorkOrderServiceMethodDescriptorSupplier("CreateWorkOrder"))
              .build();
        }
      }
    }
    return getCreateWorkOrderMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest,
      dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse> getGetWorkOrderRecordMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetWorkOrderRecord",
      requestType = dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest.class,
      responseType = dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest,
      dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse> getGetWorkOrderRecordMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest, dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse> getGetWorkOrderRecordMethod;
    if ((getGetWorkOrderRecordMethod = WorkOrderServiceGrpc.getGetWorkOrderRecordMethod) == null) {
      synchronized (WorkOrderServiceGrpc.class) {
        if ((getGetWorkOrderRecordMethod = WorkOrderServiceGrpc.getGetWorkOrderRecordMethod) == null) {
          WorkOrderServiceGrpc.getGetWorkOrderRecordMethod = getGetWorkOrderRecordMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest, dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetWorkOrderRecord"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WorkOrderServiceMethodDescriptorSupplier("GetWorkOrderRecord"))
              .build();
        }
      }
    }
    return getGetWorkOrderRecordMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListWorkOrdersRequest,
      dev.praxis.aiws.engine.v1.ListWorkOrdersResponse> getListWorkOrdersMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListWorkOrders",
      requestType = dev.praxis.aiws.engine.v1.ListWorkOrdersRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ListWorkOrdersResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListWorkOrdersRequest,
      dev.praxis.aiws.engine.v1.ListWorkOrdersResponse> getListWorkOrdersMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ListWorkOrdersRequest, dev.praxis.aiws.engine.v1.ListWorkOrdersResponse> getListWorkOrdersMethod;
    if ((getListWorkOrdersMethod = WorkOrderServiceGrpc.getListWorkOrdersMethod) == null) {
      synchronized (WorkOrderServiceGrpc.class) {
        if ((getListWorkOrdersMethod = WorkOrderServiceGrpc.getListWorkOrdersMethod) == null) {
          WorkOrderServiceGrpc.getListWorkOrdersMethod = getListWorkOrdersMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ListWorkOrdersRequest, dev.praxis.aiws.engine.v1.ListWorkOrdersResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListWorkOrders"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListWorkOrdersRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ListWorkOrdersResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WorkOrderServiceMethodDescriptorSupplier("ListWorkOrders"))
              .build();
        }
      }
    }
    return getListWorkOrdersMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CloseWorkOrderRequest,
      dev.praxis.aiws.engine.v1.CloseWorkOrderResponse> getCloseWorkOrderMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CloseWorkOrder",
      requestType = dev.praxis.aiws.engine.v1.CloseWorkOrderRequest.class,
      responseType = dev.praxis.aiws.engine.v1.CloseWorkOrderResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CloseWorkOrderRequest,
      dev.praxis.aiws.engine.v1.CloseWorkOrderResponse> getCloseWorkOrderMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.CloseWorkOrderRequest, dev.praxis.aiws.engine.v1.CloseWorkOrderResponse> getCloseWorkOrderMethod;
    if ((getCloseWorkOrderMethod = WorkOrderServiceGrpc.getCloseWorkOrderMethod) == null) {
      synchronized (WorkOrderServiceGrpc.class) {
        if ((getCloseWorkOrderMethod = WorkOrderServiceGrpc.getCloseWorkOrderMethod) == null) {
          WorkOrderServiceGrpc.getCloseWorkOrderMethod = getCloseWorkOrderMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.CloseWorkOrderRequest, dev.praxis.aiws.engine.v1.CloseWorkOrderResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CloseWorkOrder"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CloseWorkOrderRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.CloseWorkOrderResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WorkOrderServiceMethodDescriptorSupplier("CloseWorkOrder"))
              .build();
        }
      }
    }
    return getCloseWorkOrderMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest,
      dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse> getProposeWorkOrderMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ProposeWorkOrder",
      requestType = dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest.class,
      responseType = dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest,
      dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse> getProposeWorkOrderMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest, dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse> getProposeWorkOrderMethod;
    if ((getProposeWorkOrderMethod = WorkOrderServiceGrpc.getProposeWorkOrderMethod) == null) {
      synchronized (WorkOrderServiceGrpc.class) {
        if ((getProposeWorkOrderMethod = WorkOrderServiceGrpc.getProposeWorkOrderMethod) == null) {
          WorkOrderServiceGrpc.getProposeWorkOrderMethod = getProposeWorkOrderMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest, dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ProposeWorkOrder"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WorkOrderServiceMethodDescriptorSupplier("ProposeWorkOrder"))
              .build();
        }
      }
    }
    return getProposeWorkOrderMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest,
      dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse> getDecideWorkOrderProposalMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DecideWorkOrderProposal",
      requestType = dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest.class,
      responseType = dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest,
      dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse> getDecideWorkOrderProposalMethod() {
    io.grpc.MethodDescriptor<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest, dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse> getDecideWorkOrderProposalMethod;
    if ((getDecideWorkOrderProposalMethod = WorkOrderServiceGrpc.getDecideWorkOrderProposalMethod) == null) {
      synchronized (WorkOrderServiceGrpc.class) {
        if ((getDecideWorkOrderProposalMethod = WorkOrderServiceGrpc.getDecideWorkOrderProposalMethod) == null) {
          WorkOrderServiceGrpc.getDecideWorkOrderProposalMethod = getDecideWorkOrderProposalMethod =
              io.grpc.MethodDescriptor.<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest, dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DecideWorkOrderProposal"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WorkOrderServiceMethodDescriptorSupplier("DecideWorkOrderProposal"))
              .build();
        }
      }
    }
    return getDecideWorkOrderProposalMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static WorkOrderServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceStub>() {
        @java.lang.Override
        public WorkOrderServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WorkOrderServiceStub(channel, callOptions);
        }
      };
    return WorkOrderServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static WorkOrderServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceBlockingV2Stub>() {
        @java.lang.Override
        public WorkOrderServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WorkOrderServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return WorkOrderServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static WorkOrderServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceBlockingStub>() {
        @java.lang.Override
        public WorkOrderServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WorkOrderServiceBlockingStub(channel, callOptions);
        }
      };
    return WorkOrderServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static WorkOrderServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WorkOrderServiceFutureStub>() {
        @java.lang.Override
        public WorkOrderServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WorkOrderServiceFutureStub(channel, callOptions);
        }
      };
    return WorkOrderServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * WorkOrderService keeps work orders as records and as a tree. Every run belongs to one
   * work order; a work order may have a parent, and then it inherits its parent's
   * controls:
   * - pausing or cancelling a work order (AdminService) pauses or cancels every
   *   descendant's runs; a descendant resumes only when every ancestor is resumed
   *   (a resume of a work order paused by an ancestor fails with
   *   WORK_ORDER_CONTROL_INHERITED);
   * - a hold placed on a work order (AdminService.PlaceHold) holds its whole subtree;
   * - a child's `actions` narrow its parent's, never widen them: an action outside the
   *   work order's actions (or any ancestor's) is refused in it with ACTION_NOT_GRANTED,
   *   whatever the caller's grants;
   * - a child's budget is carved from its parent's: every cost an attempt reports is
   *   charged to its run's work order and to each of its ancestors, and an attempt is
   *   not dispatched (its node fails with BUDGET_EXCEEDED) when it would spend beyond
   *   what any of them has left. Amounts are exact decimal microcredits.
   * Limits: a tree is at most 8 levels deep (a root is depth 0, so depth &lt;= 7:
   * WORK_ORDER_TOO_DEEP past it) and a work order has at most 1,000 children
   * (WORK_ORDER_TOO_MANY_CHILDREN). A work order that only runs or controls have named
   * (never created here) is a root record with an empty creator.
   * Grants: `work_order.create` on the parent (for a root, on the new work order) to
   * create; `work_order.read` on a work order to read it and list its children;
   * `work_order.close` on it to close it. Creating a work order is a human's or a
   * service's decision: an agent is refused with HUMAN_REQUIRED. An agent proposes a child
   * instead (`work_order.propose` on the parent): it is recorded PROPOSED, admits no run,
   * resume or child (WORK_ORDER_NOT_APPROVED), and waits for a human
   * (`work_order.decide` on the parent, a human-only action) to approve it (OPEN) or
   * decline it with a reason (DECLINED, final).
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * CreateWorkOrder records a work order, a root or a child of `parent_id`. The
     * `work_order_id` is the idempotency key: the same creator repeating the same request
     * gets the record with `replayed = true`; anything else under a taken id fails with
     * WORK_ORDER_EXISTS (ALREADY_EXISTS). A parent that does not exist fails with
     * WORK_ORDER_NOT_FOUND; one that is closed or cancelled with WORK_ORDER_CLOSED; a budget
     * above what the parent (and its ancestors) have left with
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT; actions wider than the parent's with
     * WORK_ORDER_ACTIONS_WIDENED. Nothing is written by a refused call.
     * </pre>
     */
    default void createWorkOrder(dev.praxis.aiws.engine.v1.CreateWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateWorkOrderResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateWorkOrderMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetWorkOrderRecord answers a work order's record: who made it, its parent and
     * ancestors, its state, its runs' counts by state, its spend and its first children.
     * A work order that no record, run or control names fails with WORK_ORDER_NOT_FOUND.
     * </pre>
     */
    default void getWorkOrderRecord(dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetWorkOrderRecordMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListWorkOrders pages through work order records in id order: the roots, or the
     * children of one parent, optionally of one state.
     * </pre>
     */
    default void listWorkOrders(dev.praxis.aiws.engine.v1.ListWorkOrdersRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListWorkOrdersResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListWorkOrdersMethod(), responseObserver);
    }

    /**
     * <pre>
     * CloseWorkOrder closes a work order for good once its work is done: no new run,
     * resume or child is admitted in it afterwards (WORK_ORDER_CLOSED). A work order with a
     * live run, or with a child that is neither closed nor cancelled, fails with
     * WORK_ORDER_NOT_DRAINED. Closing a closed work order answers it unchanged.
     * </pre>
     */
    default void closeWorkOrder(dev.praxis.aiws.engine.v1.CloseWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CloseWorkOrderResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCloseWorkOrderMethod(), responseObserver);
    }

    /**
     * <pre>
     * ProposeWorkOrder records a proposed child of `parent_id` (required) in state PROPOSED:
     * what an agent does where a human would create one. It is checked as a create would be
     * (the same refusals: WORK_ORDER_NOT_FOUND, WORK_ORDER_TOO_DEEP,
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT, WORK_ORDER_ACTIONS_WIDENED, ...; at most 1,000
     * proposals wait under one parent, WORK_ORDER_TOO_MANY_CHILDREN), and again when a
     * human approves it. `work_order_id` is the idempotency key: the same proposer
     * repeating the same proposal gets the record with `replayed = true`; anything else
     * under a taken id fails with WORK_ORDER_EXISTS. A proposal shows in
     * ListWorkOrders with `state = PROPOSED` (the humans' list of what to decide) and as
     * its parent's child; it counts in no `child_count` until approved.
     * </pre>
     */
    default void proposeWorkOrder(dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getProposeWorkOrderMethod(), responseObserver);
    }

    /**
     * <pre>
     * DecideWorkOrderProposal is a human's decision on a proposed child (`work_order.decide`
     * on its parent; an agent or a service is refused with HUMAN_REQUIRED). APPROVE makes
     * it OPEN after the checks of a direct create, made now against its parent as it is
     * (a refusal leaves it PROPOSED: decline it, or make room and approve again); DECLINE
     * (a `reason` is required) makes it DECLINED for good. The same decision again answers
     * the record unchanged; the other one, or a decision on a work order created directly,
     * fails with WORK_ORDER_PROPOSAL_DECIDED.
     * </pre>
     */
    default void decideWorkOrderProposal(dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDecideWorkOrderProposalMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service WorkOrderService.
   * <pre>
   * WorkOrderService keeps work orders as records and as a tree. Every run belongs to one
   * work order; a work order may have a parent, and then it inherits its parent's
   * controls:
   * - pausing or cancelling a work order (AdminService) pauses or cancels every
   *   descendant's runs; a descendant resumes only when every ancestor is resumed
   *   (a resume of a work order paused by an ancestor fails with
   *   WORK_ORDER_CONTROL_INHERITED);
   * - a hold placed on a work order (AdminService.PlaceHold) holds its whole subtree;
   * - a child's `actions` narrow its parent's, never widen them: an action outside the
   *   work order's actions (or any ancestor's) is refused in it with ACTION_NOT_GRANTED,
   *   whatever the caller's grants;
   * - a child's budget is carved from its parent's: every cost an attempt reports is
   *   charged to its run's work order and to each of its ancestors, and an attempt is
   *   not dispatched (its node fails with BUDGET_EXCEEDED) when it would spend beyond
   *   what any of them has left. Amounts are exact decimal microcredits.
   * Limits: a tree is at most 8 levels deep (a root is depth 0, so depth &lt;= 7:
   * WORK_ORDER_TOO_DEEP past it) and a work order has at most 1,000 children
   * (WORK_ORDER_TOO_MANY_CHILDREN). A work order that only runs or controls have named
   * (never created here) is a root record with an empty creator.
   * Grants: `work_order.create` on the parent (for a root, on the new work order) to
   * create; `work_order.read` on a work order to read it and list its children;
   * `work_order.close` on it to close it. Creating a work order is a human's or a
   * service's decision: an agent is refused with HUMAN_REQUIRED. An agent proposes a child
   * instead (`work_order.propose` on the parent): it is recorded PROPOSED, admits no run,
   * resume or child (WORK_ORDER_NOT_APPROVED), and waits for a human
   * (`work_order.decide` on the parent, a human-only action) to approve it (OPEN) or
   * decline it with a reason (DECLINED, final).
   * </pre>
   */
  public static abstract class WorkOrderServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return WorkOrderServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service WorkOrderService.
   * <pre>
   * WorkOrderService keeps work orders as records and as a tree. Every run belongs to one
   * work order; a work order may have a parent, and then it inherits its parent's
   * controls:
   * - pausing or cancelling a work order (AdminService) pauses or cancels every
   *   descendant's runs; a descendant resumes only when every ancestor is resumed
   *   (a resume of a work order paused by an ancestor fails with
   *   WORK_ORDER_CONTROL_INHERITED);
   * - a hold placed on a work order (AdminService.PlaceHold) holds its whole subtree;
   * - a child's `actions` narrow its parent's, never widen them: an action outside the
   *   work order's actions (or any ancestor's) is refused in it with ACTION_NOT_GRANTED,
   *   whatever the caller's grants;
   * - a child's budget is carved from its parent's: every cost an attempt reports is
   *   charged to its run's work order and to each of its ancestors, and an attempt is
   *   not dispatched (its node fails with BUDGET_EXCEEDED) when it would spend beyond
   *   what any of them has left. Amounts are exact decimal microcredits.
   * Limits: a tree is at most 8 levels deep (a root is depth 0, so depth &lt;= 7:
   * WORK_ORDER_TOO_DEEP past it) and a work order has at most 1,000 children
   * (WORK_ORDER_TOO_MANY_CHILDREN). A work order that only runs or controls have named
   * (never created here) is a root record with an empty creator.
   * Grants: `work_order.create` on the parent (for a root, on the new work order) to
   * create; `work_order.read` on a work order to read it and list its children;
   * `work_order.close` on it to close it. Creating a work order is a human's or a
   * service's decision: an agent is refused with HUMAN_REQUIRED. An agent proposes a child
   * instead (`work_order.propose` on the parent): it is recorded PROPOSED, admits no run,
   * resume or child (WORK_ORDER_NOT_APPROVED), and waits for a human
   * (`work_order.decide` on the parent, a human-only action) to approve it (OPEN) or
   * decline it with a reason (DECLINED, final).
   * </pre>
   */
  public static final class WorkOrderServiceStub
      extends io.grpc.stub.AbstractAsyncStub<WorkOrderServiceStub> {
    private WorkOrderServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WorkOrderServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WorkOrderServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateWorkOrder records a work order, a root or a child of `parent_id`. The
     * `work_order_id` is the idempotency key: the same creator repeating the same request
     * gets the record with `replayed = true`; anything else under a taken id fails with
     * WORK_ORDER_EXISTS (ALREADY_EXISTS). A parent that does not exist fails with
     * WORK_ORDER_NOT_FOUND; one that is closed or cancelled with WORK_ORDER_CLOSED; a budget
     * above what the parent (and its ancestors) have left with
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT; actions wider than the parent's with
     * WORK_ORDER_ACTIONS_WIDENED. Nothing is written by a refused call.
     * </pre>
     */
    public void createWorkOrder(dev.praxis.aiws.engine.v1.CreateWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateWorkOrderResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateWorkOrderMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetWorkOrderRecord answers a work order's record: who made it, its parent and
     * ancestors, its state, its runs' counts by state, its spend and its first children.
     * A work order that no record, run or control names fails with WORK_ORDER_NOT_FOUND.
     * </pre>
     */
    public void getWorkOrderRecord(dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetWorkOrderRecordMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListWorkOrders pages through work order records in id order: the roots, or the
     * children of one parent, optionally of one state.
     * </pre>
     */
    public void listWorkOrders(dev.praxis.aiws.engine.v1.ListWorkOrdersRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListWorkOrdersResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListWorkOrdersMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CloseWorkOrder closes a work order for good once its work is done: no new run,
     * resume or child is admitted in it afterwards (WORK_ORDER_CLOSED). A work order with a
     * live run, or with a child that is neither closed nor cancelled, fails with
     * WORK_ORDER_NOT_DRAINED. Closing a closed work order answers it unchanged.
     * </pre>
     */
    public void closeWorkOrder(dev.praxis.aiws.engine.v1.CloseWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CloseWorkOrderResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCloseWorkOrderMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ProposeWorkOrder records a proposed child of `parent_id` (required) in state PROPOSED:
     * what an agent does where a human would create one. It is checked as a create would be
     * (the same refusals: WORK_ORDER_NOT_FOUND, WORK_ORDER_TOO_DEEP,
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT, WORK_ORDER_ACTIONS_WIDENED, ...; at most 1,000
     * proposals wait under one parent, WORK_ORDER_TOO_MANY_CHILDREN), and again when a
     * human approves it. `work_order_id` is the idempotency key: the same proposer
     * repeating the same proposal gets the record with `replayed = true`; anything else
     * under a taken id fails with WORK_ORDER_EXISTS. A proposal shows in
     * ListWorkOrders with `state = PROPOSED` (the humans' list of what to decide) and as
     * its parent's child; it counts in no `child_count` until approved.
     * </pre>
     */
    public void proposeWorkOrder(dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getProposeWorkOrderMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DecideWorkOrderProposal is a human's decision on a proposed child (`work_order.decide`
     * on its parent; an agent or a service is refused with HUMAN_REQUIRED). APPROVE makes
     * it OPEN after the checks of a direct create, made now against its parent as it is
     * (a refusal leaves it PROPOSED: decline it, or make room and approve again); DECLINE
     * (a `reason` is required) makes it DECLINED for good. The same decision again answers
     * the record unchanged; the other one, or a decision on a work order created directly,
     * fails with WORK_ORDER_PROPOSAL_DECIDED.
     * </pre>
     */
    public void decideWorkOrderProposal(dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest request,
        io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDecideWorkOrderProposalMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service WorkOrderService.
   * <pre>
   * WorkOrderService keeps work orders as records and as a tree. Every run belongs to one
   * work order; a work order may have a parent, and then it inherits its parent's
   * controls:
   * - pausing or cancelling a work order (AdminService) pauses or cancels every
   *   descendant's runs; a descendant resumes only when every ancestor is resumed
   *   (a resume of a work order paused by an ancestor fails with
   *   WORK_ORDER_CONTROL_INHERITED);
   * - a hold placed on a work order (AdminService.PlaceHold) holds its whole subtree;
   * - a child's `actions` narrow its parent's, never widen them: an action outside the
   *   work order's actions (or any ancestor's) is refused in it with ACTION_NOT_GRANTED,
   *   whatever the caller's grants;
   * - a child's budget is carved from its parent's: every cost an attempt reports is
   *   charged to its run's work order and to each of its ancestors, and an attempt is
   *   not dispatched (its node fails with BUDGET_EXCEEDED) when it would spend beyond
   *   what any of them has left. Amounts are exact decimal microcredits.
   * Limits: a tree is at most 8 levels deep (a root is depth 0, so depth &lt;= 7:
   * WORK_ORDER_TOO_DEEP past it) and a work order has at most 1,000 children
   * (WORK_ORDER_TOO_MANY_CHILDREN). A work order that only runs or controls have named
   * (never created here) is a root record with an empty creator.
   * Grants: `work_order.create` on the parent (for a root, on the new work order) to
   * create; `work_order.read` on a work order to read it and list its children;
   * `work_order.close` on it to close it. Creating a work order is a human's or a
   * service's decision: an agent is refused with HUMAN_REQUIRED. An agent proposes a child
   * instead (`work_order.propose` on the parent): it is recorded PROPOSED, admits no run,
   * resume or child (WORK_ORDER_NOT_APPROVED), and waits for a human
   * (`work_order.decide` on the parent, a human-only action) to approve it (OPEN) or
   * decline it with a reason (DECLINED, final).
   * </pre>
   */
  public static final class WorkOrderServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<WorkOrderServiceBlockingV2Stub> {
    private WorkOrderServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WorkOrderServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WorkOrderServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateWorkOrder records a work order, a root or a child of `parent_id`. The
     * `work_order_id` is the idempotency key: the same creator repeating the same request
     * gets the record with `replayed = true`; anything else under a taken id fails with
     * WORK_ORDER_EXISTS (ALREADY_EXISTS). A parent that does not exist fails with
     * WORK_ORDER_NOT_FOUND; one that is closed or cancelled with WORK_ORDER_CLOSED; a budget
     * above what the parent (and its ancestors) have left with
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT; actions wider than the parent's with
     * WORK_ORDER_ACTIONS_WIDENED. Nothing is written by a refused call.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateWorkOrderResponse createWorkOrder(dev.praxis.aiws.engine.v1.CreateWorkOrderRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetWorkOrderRecord answers a work order's record: who made it, its parent and
     * ancestors, its state, its runs' counts by state, its spend and its first children.
     * A work order that no record, run or control names fails with WORK_ORDER_NOT_FOUND.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse getWorkOrderRecord(dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetWorkOrderRecordMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListWorkOrders pages through work order records in id order: the roots, or the
     * children of one parent, optionally of one state.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListWorkOrdersResponse listWorkOrders(dev.praxis.aiws.engine.v1.ListWorkOrdersRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListWorkOrdersMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CloseWorkOrder closes a work order for good once its work is done: no new run,
     * resume or child is admitted in it afterwards (WORK_ORDER_CLOSED). A work order with a
     * live run, or with a child that is neither closed nor cancelled, fails with
     * WORK_ORDER_NOT_DRAINED. Closing a closed work order answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CloseWorkOrderResponse closeWorkOrder(dev.praxis.aiws.engine.v1.CloseWorkOrderRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCloseWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ProposeWorkOrder records a proposed child of `parent_id` (required) in state PROPOSED:
     * what an agent does where a human would create one. It is checked as a create would be
     * (the same refusals: WORK_ORDER_NOT_FOUND, WORK_ORDER_TOO_DEEP,
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT, WORK_ORDER_ACTIONS_WIDENED, ...; at most 1,000
     * proposals wait under one parent, WORK_ORDER_TOO_MANY_CHILDREN), and again when a
     * human approves it. `work_order_id` is the idempotency key: the same proposer
     * repeating the same proposal gets the record with `replayed = true`; anything else
     * under a taken id fails with WORK_ORDER_EXISTS. A proposal shows in
     * ListWorkOrders with `state = PROPOSED` (the humans' list of what to decide) and as
     * its parent's child; it counts in no `child_count` until approved.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse proposeWorkOrder(dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getProposeWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecideWorkOrderProposal is a human's decision on a proposed child (`work_order.decide`
     * on its parent; an agent or a service is refused with HUMAN_REQUIRED). APPROVE makes
     * it OPEN after the checks of a direct create, made now against its parent as it is
     * (a refusal leaves it PROPOSED: decline it, or make room and approve again); DECLINE
     * (a `reason` is required) makes it DECLINED for good. The same decision again answers
     * the record unchanged; the other one, or a decision on a work order created directly,
     * fails with WORK_ORDER_PROPOSAL_DECIDED.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse decideWorkOrderProposal(dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDecideWorkOrderProposalMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service WorkOrderService.
   * <pre>
   * WorkOrderService keeps work orders as records and as a tree. Every run belongs to one
   * work order; a work order may have a parent, and then it inherits its parent's
   * controls:
   * - pausing or cancelling a work order (AdminService) pauses or cancels every
   *   descendant's runs; a descendant resumes only when every ancestor is resumed
   *   (a resume of a work order paused by an ancestor fails with
   *   WORK_ORDER_CONTROL_INHERITED);
   * - a hold placed on a work order (AdminService.PlaceHold) holds its whole subtree;
   * - a child's `actions` narrow its parent's, never widen them: an action outside the
   *   work order's actions (or any ancestor's) is refused in it with ACTION_NOT_GRANTED,
   *   whatever the caller's grants;
   * - a child's budget is carved from its parent's: every cost an attempt reports is
   *   charged to its run's work order and to each of its ancestors, and an attempt is
   *   not dispatched (its node fails with BUDGET_EXCEEDED) when it would spend beyond
   *   what any of them has left. Amounts are exact decimal microcredits.
   * Limits: a tree is at most 8 levels deep (a root is depth 0, so depth &lt;= 7:
   * WORK_ORDER_TOO_DEEP past it) and a work order has at most 1,000 children
   * (WORK_ORDER_TOO_MANY_CHILDREN). A work order that only runs or controls have named
   * (never created here) is a root record with an empty creator.
   * Grants: `work_order.create` on the parent (for a root, on the new work order) to
   * create; `work_order.read` on a work order to read it and list its children;
   * `work_order.close` on it to close it. Creating a work order is a human's or a
   * service's decision: an agent is refused with HUMAN_REQUIRED. An agent proposes a child
   * instead (`work_order.propose` on the parent): it is recorded PROPOSED, admits no run,
   * resume or child (WORK_ORDER_NOT_APPROVED), and waits for a human
   * (`work_order.decide` on the parent, a human-only action) to approve it (OPEN) or
   * decline it with a reason (DECLINED, final).
   * </pre>
   */
  public static final class WorkOrderServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<WorkOrderServiceBlockingStub> {
    private WorkOrderServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WorkOrderServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WorkOrderServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateWorkOrder records a work order, a root or a child of `parent_id`. The
     * `work_order_id` is the idempotency key: the same creator repeating the same request
     * gets the record with `replayed = true`; anything else under a taken id fails with
     * WORK_ORDER_EXISTS (ALREADY_EXISTS). A parent that does not exist fails with
     * WORK_ORDER_NOT_FOUND; one that is closed or cancelled with WORK_ORDER_CLOSED; a budget
     * above what the parent (and its ancestors) have left with
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT; actions wider than the parent's with
     * WORK_ORDER_ACTIONS_WIDENED. Nothing is written by a refused call.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CreateWorkOrderResponse createWorkOrder(dev.praxis.aiws.engine.v1.CreateWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetWorkOrderRecord answers a work order's record: who made it, its parent and
     * ancestors, its state, its runs' counts by state, its spend and its first children.
     * A work order that no record, run or control names fails with WORK_ORDER_NOT_FOUND.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse getWorkOrderRecord(dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetWorkOrderRecordMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListWorkOrders pages through work order records in id order: the roots, or the
     * children of one parent, optionally of one state.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ListWorkOrdersResponse listWorkOrders(dev.praxis.aiws.engine.v1.ListWorkOrdersRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListWorkOrdersMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CloseWorkOrder closes a work order for good once its work is done: no new run,
     * resume or child is admitted in it afterwards (WORK_ORDER_CLOSED). A work order with a
     * live run, or with a child that is neither closed nor cancelled, fails with
     * WORK_ORDER_NOT_DRAINED. Closing a closed work order answers it unchanged.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.CloseWorkOrderResponse closeWorkOrder(dev.praxis.aiws.engine.v1.CloseWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCloseWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ProposeWorkOrder records a proposed child of `parent_id` (required) in state PROPOSED:
     * what an agent does where a human would create one. It is checked as a create would be
     * (the same refusals: WORK_ORDER_NOT_FOUND, WORK_ORDER_TOO_DEEP,
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT, WORK_ORDER_ACTIONS_WIDENED, ...; at most 1,000
     * proposals wait under one parent, WORK_ORDER_TOO_MANY_CHILDREN), and again when a
     * human approves it. `work_order_id` is the idempotency key: the same proposer
     * repeating the same proposal gets the record with `replayed = true`; anything else
     * under a taken id fails with WORK_ORDER_EXISTS. A proposal shows in
     * ListWorkOrders with `state = PROPOSED` (the humans' list of what to decide) and as
     * its parent's child; it counts in no `child_count` until approved.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse proposeWorkOrder(dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getProposeWorkOrderMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecideWorkOrderProposal is a human's decision on a proposed child (`work_order.decide`
     * on its parent; an agent or a service is refused with HUMAN_REQUIRED). APPROVE makes
     * it OPEN after the checks of a direct create, made now against its parent as it is
     * (a refusal leaves it PROPOSED: decline it, or make room and approve again); DECLINE
     * (a `reason` is required) makes it DECLINED for good. The same decision again answers
     * the record unchanged; the other one, or a decision on a work order created directly,
     * fails with WORK_ORDER_PROPOSAL_DECIDED.
     * </pre>
     */
    public dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse decideWorkOrderProposal(dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDecideWorkOrderProposalMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service WorkOrderService.
   * <pre>
   * WorkOrderService keeps work orders as records and as a tree. Every run belongs to one
   * work order; a work order may have a parent, and then it inherits its parent's
   * controls:
   * - pausing or cancelling a work order (AdminService) pauses or cancels every
   *   descendant's runs; a descendant resumes only when every ancestor is resumed
   *   (a resume of a work order paused by an ancestor fails with
   *   WORK_ORDER_CONTROL_INHERITED);
   * - a hold placed on a work order (AdminService.PlaceHold) holds its whole subtree;
   * - a child's `actions` narrow its parent's, never widen them: an action outside the
   *   work order's actions (or any ancestor's) is refused in it with ACTION_NOT_GRANTED,
   *   whatever the caller's grants;
   * - a child's budget is carved from its parent's: every cost an attempt reports is
   *   charged to its run's work order and to each of its ancestors, and an attempt is
   *   not dispatched (its node fails with BUDGET_EXCEEDED) when it would spend beyond
   *   what any of them has left. Amounts are exact decimal microcredits.
   * Limits: a tree is at most 8 levels deep (a root is depth 0, so depth &lt;= 7:
   * WORK_ORDER_TOO_DEEP past it) and a work order has at most 1,000 children
   * (WORK_ORDER_TOO_MANY_CHILDREN). A work order that only runs or controls have named
   * (never created here) is a root record with an empty creator.
   * Grants: `work_order.create` on the parent (for a root, on the new work order) to
   * create; `work_order.read` on a work order to read it and list its children;
   * `work_order.close` on it to close it. Creating a work order is a human's or a
   * service's decision: an agent is refused with HUMAN_REQUIRED. An agent proposes a child
   * instead (`work_order.propose` on the parent): it is recorded PROPOSED, admits no run,
   * resume or child (WORK_ORDER_NOT_APPROVED), and waits for a human
   * (`work_order.decide` on the parent, a human-only action) to approve it (OPEN) or
   * decline it with a reason (DECLINED, final).
   * </pre>
   */
  public static final class WorkOrderServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<WorkOrderServiceFutureStub> {
    private WorkOrderServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WorkOrderServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WorkOrderServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateWorkOrder records a work order, a root or a child of `parent_id`. The
     * `work_order_id` is the idempotency key: the same creator repeating the same request
     * gets the record with `replayed = true`; anything else under a taken id fails with
     * WORK_ORDER_EXISTS (ALREADY_EXISTS). A parent that does not exist fails with
     * WORK_ORDER_NOT_FOUND; one that is closed or cancelled with WORK_ORDER_CLOSED; a budget
     * above what the parent (and its ancestors) have left with
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT; actions wider than the parent's with
     * WORK_ORDER_ACTIONS_WIDENED. Nothing is written by a refused call.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CreateWorkOrderResponse> createWorkOrder(
        dev.praxis.aiws.engine.v1.CreateWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateWorkOrderMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetWorkOrderRecord answers a work order's record: who made it, its parent and
     * ancestors, its state, its runs' counts by state, its spend and its first children.
     * A work order that no record, run or control names fails with WORK_ORDER_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse> getWorkOrderRecord(
        dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetWorkOrderRecordMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListWorkOrders pages through work order records in id order: the roots, or the
     * children of one parent, optionally of one state.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ListWorkOrdersResponse> listWorkOrders(
        dev.praxis.aiws.engine.v1.ListWorkOrdersRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListWorkOrdersMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CloseWorkOrder closes a work order for good once its work is done: no new run,
     * resume or child is admitted in it afterwards (WORK_ORDER_CLOSED). A work order with a
     * live run, or with a child that is neither closed nor cancelled, fails with
     * WORK_ORDER_NOT_DRAINED. Closing a closed work order answers it unchanged.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.CloseWorkOrderResponse> closeWorkOrder(
        dev.praxis.aiws.engine.v1.CloseWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCloseWorkOrderMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ProposeWorkOrder records a proposed child of `parent_id` (required) in state PROPOSED:
     * what an agent does where a human would create one. It is checked as a create would be
     * (the same refusals: WORK_ORDER_NOT_FOUND, WORK_ORDER_TOO_DEEP,
     * WORK_ORDER_BUDGET_EXCEEDS_PARENT, WORK_ORDER_ACTIONS_WIDENED, ...; at most 1,000
     * proposals wait under one parent, WORK_ORDER_TOO_MANY_CHILDREN), and again when a
     * human approves it. `work_order_id` is the idempotency key: the same proposer
     * repeating the same proposal gets the record with `replayed = true`; anything else
     * under a taken id fails with WORK_ORDER_EXISTS. A proposal shows in
     * ListWorkOrders with `state = PROPOSED` (the humans' list of what to decide) and as
     * its parent's child; it counts in no `child_count` until approved.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse> proposeWorkOrder(
        dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getProposeWorkOrderMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DecideWorkOrderProposal is a human's decision on a proposed child (`work_order.decide`
     * on its parent; an agent or a service is refused with HUMAN_REQUIRED). APPROVE makes
     * it OPEN after the checks of a direct create, made now against its parent as it is
     * (a refusal leaves it PROPOSED: decline it, or make room and approve again); DECLINE
     * (a `reason` is required) makes it DECLINED for good. The same decision again answers
     * the record unchanged; the other one, or a decision on a work order created directly,
     * fails with WORK_ORDER_PROPOSAL_DECIDED.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse> decideWorkOrderProposal(
        dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDecideWorkOrderProposalMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_WORK_ORDER = 0;
  private static final int METHODID_GET_WORK_ORDER_RECORD = 1;
  private static final int METHODID_LIST_WORK_ORDERS = 2;
  private static final int METHODID_CLOSE_WORK_ORDER = 3;
  private static final int METHODID_PROPOSE_WORK_ORDER = 4;
  private static final int METHODID_DECIDE_WORK_ORDER_PROPOSAL = 5;

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
        case METHODID_CREATE_WORK_ORDER:
          serviceImpl.createWorkOrder((dev.praxis.aiws.engine.v1.CreateWorkOrderRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CreateWorkOrderResponse>) responseObserver);
          break;
        case METHODID_GET_WORK_ORDER_RECORD:
          serviceImpl.getWorkOrderRecord((dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse>) responseObserver);
          break;
        case METHODID_LIST_WORK_ORDERS:
          serviceImpl.listWorkOrders((dev.praxis.aiws.engine.v1.ListWorkOrdersRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ListWorkOrdersResponse>) responseObserver);
          break;
        case METHODID_CLOSE_WORK_ORDER:
          serviceImpl.closeWorkOrder((dev.praxis.aiws.engine.v1.CloseWorkOrderRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.CloseWorkOrderResponse>) responseObserver);
          break;
        case METHODID_PROPOSE_WORK_ORDER:
          serviceImpl.proposeWorkOrder((dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse>) responseObserver);
          break;
        case METHODID_DECIDE_WORK_ORDER_PROPOSAL:
          serviceImpl.decideWorkOrderProposal((dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest) request,
              (io.grpc.stub.StreamObserver<dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse>) responseObserver);
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
          getCreateWorkOrderMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CreateWorkOrderRequest,
              dev.praxis.aiws.engine.v1.CreateWorkOrderResponse>(
                service, METHODID_CREATE_WORK_ORDER)))
        .addMethod(
          getGetWorkOrderRecordMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.GetWorkOrderRecordRequest,
              dev.praxis.aiws.engine.v1.GetWorkOrderRecordResponse>(
                service, METHODID_GET_WORK_ORDER_RECORD)))
        .addMethod(
          getListWorkOrdersMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ListWorkOrdersRequest,
              dev.praxis.aiws.engine.v1.ListWorkOrdersResponse>(
                service, METHODID_LIST_WORK_ORDERS)))
        .addMethod(
          getCloseWorkOrderMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.CloseWorkOrderRequest,
              dev.praxis.aiws.engine.v1.CloseWorkOrderResponse>(
                service, METHODID_CLOSE_WORK_ORDER)))
        .addMethod(
          getProposeWorkOrderMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.ProposeWorkOrderRequest,
              dev.praxis.aiws.engine.v1.ProposeWorkOrderResponse>(
                service, METHODID_PROPOSE_WORK_ORDER)))
        .addMethod(
          getDecideWorkOrderProposalMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.praxis.aiws.engine.v1.DecideWorkOrderProposalRequest,
              dev.praxis.aiws.engine.v1.DecideWorkOrderProposalResponse>(
                service, METHODID_DECIDE_WORK_ORDER_PROPOSAL)))
        .build();
  }

  private static abstract class WorkOrderServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    WorkOrderServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.praxis.aiws.engine.v1.WorkOrderProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("WorkOrderService");
    }
  }

  private static final class WorkOrderServiceFileDescriptorSupplier
      extends WorkOrderServiceBaseDescriptorSupplier {
    WorkOrderServiceFileDescriptorSupplier() {}
  }

  private static final class WorkOrderServiceMethodDescriptorSupplier
      extends WorkOrderServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    WorkOrderServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (WorkOrderServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new WorkOrderServiceFileDescriptorSupplier())
              .addMethod(getCreateWorkOrderMethod())
              .addMethod(getGetWorkOrderRecordMethod())
              .addMethod(getListWorkOrdersMethod())
              .addMethod(getCloseWorkOrderMethod())
              .addMethod(getProposeWorkOrderMethod())
              .addMethod(getDecideWorkOrderProposalMethod())
              .build();
        }
      }
    }
    return result;
  }
}
