import dev.praxis.aiws.engine.v1.GetEpochsRequest;
import dev.praxis.aiws.engine.v1.GetEpochsResponse;
import dev.praxis.client.DynamicInvoker;
import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.PraxisError;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.TimeUnit;

/** Reads the epochs of work order "wo-1" from a local engine, typed and then dynamically. */
public class GetEpochs {
  public static void main(String[] args) throws Exception {
    String target = args.length > 0 ? args[0] : "127.0.0.1:50051";
    String token = System.getenv("PRAXIS_TOKEN");
    try (PraxisClients clients = Praxis.connect(target, token)) {
      try {
        GetEpochsResponse response =
            clients
                .registry()
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getEpochs(GetEpochsRequest.newBuilder().setWorkOrderId("wo-1").build());
        System.out.println(
            "typed:   installation " + response.getEpochs().getInstallationId()
                + ", ownership epoch " + response.getEpochs().getOwnershipEpoch()
                + ", authority epoch " + response.getEpochs().getAuthorityEpoch());
        String json = clients.dynamic().invoke("RegistryService", "GetEpochs", "{\"workOrderId\":\"wo-1\"}");
        System.out.println("dynamic: " + json);
      } catch (StatusRuntimeException e) {
        PraxisError err = PraxisError.from(e);
        System.out.println("failed:  " + err.code() + " " + err.reason().orElse("(no reason)"));
        System.exit(1);
      }
    }
  }
}
