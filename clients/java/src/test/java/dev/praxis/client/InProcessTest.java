package dev.praxis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import dev.praxis.aiws.engine.v1.Epochs;
import dev.praxis.aiws.engine.v1.ErrorReason;
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
import io.grpc.stub.StreamObserver;
import java.util.Optional;
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

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(ServerInterceptors.intercept(new FakeRegistry(), new CaptureAuth()))
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
  void rejectsUnusableTokens() {
    assertThrows(IllegalArgumentException.class, () -> new BearerToken(""));
    assertThrows(IllegalArgumentException.class, () -> new BearerToken("a b"));
    assertThrows(IllegalArgumentException.class, () -> new BearerToken("a\nb"));
  }
}
