package dev.praxis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import dev.praxis.aiws.engine.v1.Epochs;
import dev.praxis.aiws.engine.v1.ErrorReason;
import dev.praxis.aiws.engine.v1.Event;
import dev.praxis.aiws.engine.v1.EventKind;
import dev.praxis.aiws.engine.v1.EventServiceGrpc;
import dev.praxis.aiws.engine.v1.StreamEventsRequest;
import dev.praxis.aiws.engine.v1.StreamEventsResponse;
import dev.praxis.aiws.engine.v1.GetEpochsRequest;
import dev.praxis.aiws.engine.v1.GetEpochsResponse;
import dev.praxis.aiws.engine.v1.RegistryServiceGrpc;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The helpers against a real (in-process) gRPC server that checks the bearer token. */
class InProcessTest {
  static final Context.Key<String> AUTH = Context.key("authorization");

  /** A fake RegistryService: GetEpochs for "wo-1" with token "secret", engine errors otherwise. */
  static final class FakeRegistry extends RegistryServiceGrpc.RegistryServiceImplBase {
    @Override
    public void getEpochs(GetEpochsRequest request, StreamObserver<GetEpochsResponse> out) {
      if (!"Bearer secret".equals(AUTH.get())) {
        out.onError(engineError(Code.UNAUTHENTICATED, ErrorReason.CREDENTIAL_INVALID));
        return;
      }
      if (!request.getWorkOrderId().equals("wo-1")) {
        out.onError(engineError(Code.NOT_FOUND, ErrorReason.REF_NOT_FOUND));
        return;
      }
      out.onNext(
          GetEpochsResponse.newBuilder()
              .setEpochs(Epochs.newBuilder().setInstallationId("inst-1").setOwnershipEpoch(1L << 60).setAuthorityEpoch(2))
              .build());
      out.onCompleted();
    }
  }

  /**
   * A fake EventService: StreamEvents sends the events after the cursor up to seq 3 and ends;
   * with a run filter it stays open until the caller cancels; a negative cursor fails.
   */
  static final class FakeEvents extends EventServiceGrpc.EventServiceImplBase {
    final CountDownLatch cancelled = new CountDownLatch(1);

    @Override
    public void streamEvents(StreamEventsRequest request, StreamObserver<StreamEventsResponse> out) {
      if (request.getAfter() < 0) {
        out.onError(engineError(Code.INVALID_ARGUMENT, ErrorReason.PAGE_INVALID));
        return;
      }
      ((ServerCallStreamObserver<StreamEventsResponse>) out).setOnCancelHandler(cancelled::countDown);
      for (long seq = request.getAfter() + 1; seq <= 3; seq++) {
        Event event =
            Event.newBuilder()
                .setSeq(seq + 9007199254740990L)
                .setKind(EventKind.EVENT_KIND_RUN_STARTED)
                .setRunId("run-1")
                .build();
        out.onNext(StreamEventsResponse.newBuilder().setEvent(event).build());
      }
      if (request.getRunId().isEmpty()) {
        out.onCompleted();
      }
    }
  }

  /** Collects what a stream delivers. */
  static final class Collector implements StreamObserver<String> {
    final List<String> messages = new CopyOnWriteArrayList<>();
    final CountDownLatch first = new CountDownLatch(1);
    final CountDownLatch done = new CountDownLatch(1);
    volatile Throwable error;

    @Override
    public void onNext(String json) {
      messages.add(json);
      first.countDown();
    }

    @Override
    public void onError(Throwable t) {
      error = t;
      done.countDown();
    }

    @Override
    public void onCompleted() {
      done.countDown();
    }

    void await(CountDownLatch latch) throws InterruptedException {
      assertTrue(latch.await(5, TimeUnit.SECONDS), "timed out");
    }
  }

  static StatusRuntimeException engineError(Code code, ErrorReason reason) {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(code.getNumber())
            .setMessage("text")
            .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("engine.aiws").setReason(reason.name()).build()))
            .build());
  }

  static final class CaptureAuth implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      Context ctx = Context.current().withValue(AUTH, headers.get(BearerToken.AUTHORIZATION));
      return Contexts.interceptCall(ctx, call, headers, next);
    }
  }

  private Server server;
  private ManagedChannel channel;
  private final FakeEvents events = new FakeEvents();

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(ServerInterceptors.intercept(new FakeRegistry(), new CaptureAuth()))
            .addService(events)
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  @Test
  void typedClientSendsBearerToken() {
    PraxisClients clients = new PraxisClients(channel, new BearerToken("secret"));
    GetEpochsResponse response =
        clients.registry().getEpochs(GetEpochsRequest.newBuilder().setWorkOrderId("wo-1").build());
    assertEquals("inst-1", response.getEpochs().getInstallationId());
  }

  @Test
  void wrongTokenGivesCodeAndReason() {
    PraxisClients clients = new PraxisClients(channel, new BearerToken("wrong"));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> clients.registry().getEpochs(GetEpochsRequest.newBuilder().setWorkOrderId("wo-1").build()));
    PraxisError err = PraxisError.from(e);
    assertEquals(Status.Code.UNAUTHENTICATED, err.code());
    assertEquals(Optional.of("CREDENTIAL_INVALID"), err.reason());
  }

  @Test
  void dynamicInvocationRoundTrip() {
    DynamicInvoker invoker = new PraxisClients(channel, new BearerToken("secret")).dynamic();
    String json = invoker.invoke("RegistryService", "GetEpochs", "{\"workOrderId\":\"wo-1\"}");
    assertEquals(
        "{\"epochs\":{\"installationId\":\"inst-1\",\"ownershipEpoch\":\"1152921504606846976\",\"authorityEpoch\":\"2\"}}",
        json);
  }

  @Test
  void dynamicInvocationFailure() {
    DynamicInvoker invoker = new DynamicInvoker(channel, new BearerToken("secret"));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> invoker.invoke("aiws.engine.v1.RegistryService", "GetEpochs", "{\"work_order_id\":\"wo-2\"}"));
    PraxisError err = PraxisError.from(e);
    assertEquals(Status.Code.NOT_FOUND, err.code());
    assertEquals(Optional.of(ErrorReason.REF_NOT_FOUND), err.errorReason());
  }

  @Test
  void dynamicStreamDeliversProtoJsonUntilTheServerEnds() throws Exception {
    DynamicInvoker invoker = new PraxisClients(channel, new BearerToken("secret")).dynamic();
    Collector collector = new Collector();
    invoker.invokeStream("EventService", "StreamEvents", "{\"after\":\"1\"}", collector);
    collector.await(collector.done);
    assertNull(collector.error);
    assertEquals(
        List.of(
            "{\"event\":{\"seq\":\"9007199254740992\",\"kind\":\"EVENT_KIND_RUN_STARTED\",\"runId\":\"run-1\"}}",
            "{\"event\":{\"seq\":\"9007199254740993\",\"kind\":\"EVENT_KIND_RUN_STARTED\",\"runId\":\"run-1\"}}"),
        collector.messages);
  }

  @Test
  void dynamicStreamFailureCarriesTheReason() throws Exception {
    DynamicInvoker invoker = new DynamicInvoker(channel, new BearerToken("secret"));
    Collector collector = new Collector();
    invoker.invokeStream("aiws.engine.v1.EventService", "StreamEvents", "{\"after\":\"-1\"}", collector);
    collector.await(collector.done);
    assertEquals(List.of(), collector.messages);
    PraxisError err = PraxisError.from(collector.error);
    assertEquals(Status.Code.INVALID_ARGUMENT, err.code());
    assertEquals(Optional.of(ErrorReason.PAGE_INVALID), err.errorReason());
  }

  @Test
  void dynamicStreamCancels() throws Exception {
    DynamicInvoker invoker = new DynamicInvoker(channel, new BearerToken("secret"));
    Collector collector = new Collector();
    DynamicInvoker.StreamCall call =
        invoker.invokeStream("EventService", "StreamEvents", "{\"runId\":\"run-1\",\"after\":\"2\"}", collector);
    collector.await(collector.first);
    call.cancel();
    collector.await(collector.done);
    assertTrue(events.cancelled.await(5, TimeUnit.SECONDS), "the server saw no cancellation");
    assertEquals(1, collector.messages.size());
    assertEquals(Status.Code.CANCELLED, PraxisError.from(collector.error).code());
  }

  @Test
  void dynamicStreamRefusesLocalProblems() {
    DynamicInvoker invoker = new DynamicInvoker(channel, new BearerToken("secret"));
    Collector collector = new Collector();
    for (String[] c :
        new String[][] {
          {"RunService", "WatchRun", "{\"run\":\"r\"}"},
          {"EventService", "StreamEvents", "{\"after\":"},
          {"RunService", "GetRun", "{}"},
          {"RunService", "Nope", "{}"},
        }) {
      assertThrows(IllegalArgumentException.class, () -> invoker.invokeStream(c[0], c[1], c[2], collector), c[1]);
    }
    assertEquals(1, collector.done.getCount(), "the observer was called");
  }

  @Test
  void rejectsUnusableTokens() {
    assertThrows(IllegalArgumentException.class, () -> new BearerToken(""));
    assertThrows(IllegalArgumentException.class, () -> new BearerToken("a b"));
    assertThrows(IllegalArgumentException.class, () -> new BearerToken("a\nb"));
  }
}
