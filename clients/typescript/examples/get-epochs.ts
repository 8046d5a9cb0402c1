// Reads the epochs of work order wo-1 from a local `praxis serve`.
import { codeName, connect, errorReason } from "@praxis-engine/client";

const praxis = connect("127.0.0.1:50051", process.env.PRAXIS_TOKEN);
try {
  const { epochs } = await praxis.registry.getEpochs({ workOrderId: "wo-1" }, { timeoutMs: 5000 });
  console.log("epochs:", epochs);

  // The same call by name, with proto-JSON in and out (what conformance runners use).
  const result = await praxis.invokeJson("RegistryService", "GetEpochs", { workOrderId: "wo-1" });
  console.log("json:", JSON.stringify(result));
} catch (err) {
  const { code, reason } = errorReason(err); // e.g. UNAUTHENTICATED, "CREDENTIAL_INVALID"
  console.error(`GetEpochs failed: ${codeName(code)} ${reason}`);
  process.exitCode = 1;
} finally {
  praxis.close();
}
