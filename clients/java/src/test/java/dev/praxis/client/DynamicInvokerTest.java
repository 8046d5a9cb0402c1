package dev.praxis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import dev.praxis.aiws.engine.testing.v1.SetTimeRequest;
import dev.praxis.aiws.engine.v1.ExecuteRequest;
import dev.praxis.aiws.engine.v1.ListRunsRequest;
import dev.praxis.aiws.engine.v1.RunState;
import dev.praxis.aiws.engine.v1.StartRunRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DynamicInvokerTest {
  @Test
  void parsesNestedOneofMapsAndInt64Strings() {
    String json =
        "{\"epochs\":{\"installationId\":\"inst-1\",\"ownershipEpoch\":\"9007199254740993\",\"authority_epoch\":2},"
            + "\"requestId\":\"req-1\","
            + "\"command\":{\"propose\":{\"ref\":{\"workOrderId\":\"wo-1\",\"runId\":\"r-1\"},"
            + "\"proposalId\":\"p-1\",\"baseRevision\":\"3\",\"definitionJson\":\"{}\","
            + "\"policyDigests\":{\"tools\":\"sha256:00\"}}}}";
    Message parsed = DynamicInvoker.parseRequest("RegistryService", "Execute", json);
    ExecuteRequest request = (ExecuteRequest) parsed;
    assertEquals(9007199254740993L, request.getEpochs().getOwnershipEpoch());
    assertEquals(2, request.getEpochs().getAuthorityEpoch());
    assertEquals("wo-1", request.getCommand().getPropose().getRef().getWorkOrderId());
    assertEquals(3, request.getCommand().getPropose().getBaseRevision());
    assertEquals("sha256:00", request.getCommand().getPropose().getPolicyDigestsMap().get("tools"));
    String printed = DynamicInvoker.toJson(request);
    assertTrue(printed.contains("\"ownershipEpoch\":\"9007199254740993\""), printed);
    assertTrue(printed.contains("\"baseRevision\":\"3\""), printed);
    assertEquals(request, DynamicInvoker.parseRequest("aiws.engine.v1.RegistryService", "Execute", printed));
  }

  @Test
  void enumsAsNamesAndDefaultsOmitted() {
    ListRunsRequest request =
        (ListRunsRequest) DynamicInvoker.parseRequest("RunService", "ListRuns", "{\"state\":\"RUN_STATE_RUNNING\",\"page_size\":5}");
    assertEquals(RunState.RUN_STATE_RUNNING, request.getState());
    assertEquals("{\"state\":\"RUN_STATE_RUNNING\",\"pageSize\":5}", DynamicInvoker.toJson(request));
    assertEquals("{}", DynamicInvoker.toJson(ListRunsRequest.getDefaultInstance()));
  }

  @Test
  void oneofWithScalarMember() {
    StartRunRequest request =
        (StartRunRequest) DynamicInvoker.parseRequest("RunService", "StartRun", "{\"requestId\":\"q\",\"definitionJson\":\"{}\"}");
    assertEquals(StartRunRequest.SourceCase.DEFINITION_JSON, request.getSourceCase());
  }

  @Test
  void testingPackageByShortName() {
    SetTimeRequest request =
        (SetTimeRequest) DynamicInvoker.parseRequest("TestClockService", "SetTime", "{\"nowMs\":\"1767225600000\"}");
    assertEquals(1_767_225_600_000L, request.getNowMs());
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, () -> DynamicInvoker.parseRequest("RunService", "ListRuns", "{\"nope\":1}"));
    assertThrows(IllegalArgumentException.class, () -> DynamicInvoker.parseRequest("RunService", "ListRuns", "{\"state\":\"RUNNING\"}"));
    assertThrows(IllegalArgumentException.class, () -> DynamicInvoker.parseRequest("RunService", "ListRuns", "not json"));
    assertThrows(IllegalArgumentException.class, () -> DynamicInvoker.parseRequest("RunService", "Nope", "{}"));
    assertThrows(IllegalArgumentException.class, () -> DynamicInvoker.parseRequest("NopeService", "GetRun", "{}"));
    assertThrows(IllegalArgumentException.class, () -> DynamicInvoker.parseRequest("RunService", "WatchRun", "{}"));
  }

  @Test
  void tableHoldsEveryUnaryMethod() {
    List<String> methods = new ArrayList<>();
    DynamicInvoker.unaryMethods().forEach(methods::add);
    assertEquals(79, methods.size(), methods.toString());
    assertTrue(methods.contains("aiws.engine.v1.SimulationService/SimulateRun"));
    assertTrue(methods.contains("aiws.engine.v1.HandoffService/ListHandoffs"));
    assertTrue(methods.contains("aiws.engine.v1.NotificationService/RedeliverDelivery"));
    assertTrue(methods.contains("aiws.engine.v1.RunService/ResumeRun"));
    assertTrue(methods.contains("aiws.engine.v1.WaitService/ReviewWait"));
    assertTrue(methods.contains("aiws.engine.v1.ScheduleService/BackfillSchedule"));
    assertTrue(methods.contains("aiws.engine.v1.RegistryService/GetEpochs"));
    assertTrue(methods.contains("aiws.engine.testing.v1.TestClockService/Advance"));
    for (String service :
        new String[] {"ContractService/CreateContract", "ReconciliationService/Reconcile",
          "WaitService/SatisfyWait", "AssessmentService/RecordAssessment",
          "HandoffService/AcknowledgeHandoff", "RegistryService/ListRefs",
          "ContractService/ListContracts"}) {
      assertTrue(methods.contains("aiws.engine.v1." + service), service);
    }
    assertTrue(!methods.contains("aiws.engine.v1.EventService/StreamEvents"));
    List<String> streams = new ArrayList<>();
    DynamicInvoker.serverStreamingMethods().forEach(streams::add);
    assertEquals(
        List.of(
            "aiws.engine.v1.EventService/StreamEvents",
            "aiws.engine.v1.InboxService/WatchInbox",
            "aiws.engine.v1.RunService/WatchRun"),
        streams);
    for (String full : methods) {
      String[] parts = full.split("/");
      DynamicInvoker.parseRequest(parts[0], parts[1], "{}");
    }
  }
}
