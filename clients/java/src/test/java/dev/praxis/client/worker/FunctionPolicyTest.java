package dev.praxis.client.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.praxis.aiws.engine.v1.AgentSpec;
import dev.praxis.aiws.engine.v1.Task;
import org.junit.jupiter.api.Test;

class FunctionPolicyTest {
  @Test
  void theContextCarriesTheProviderAndTheFunctionPolicy() {
    AgentSpec agent =
        AgentSpec.newBuilder()
            .setModel("m")
            .setProvider("acme")
            .setFunctionsJson("{\"allow\":[\"calc\",\"web.*\"],\"deny\":[\"*.fetch\"]}")
            .build();
    TaskContext ctx = new TaskContext(Task.newBuilder().setAgent(agent).build());
    assertEquals("acme", ctx.provider());
    assertTrue(ctx.functionAllowed("calc"));
    assertTrue(ctx.functionAllowed("web.search"));
    assertFalse(ctx.functionAllowed("web.fetch"));
    assertFalse(ctx.functionAllowed("calculator"));
    TaskContext old = new TaskContext(Task.newBuilder().setAgent(AgentSpec.newBuilder().setModel("m")).build());
    assertTrue(old.functionAllowed("anything"));
    assertEquals("", old.provider());
  }

  @Test
  void starMatchesAnyRunOfCharacters() {
    assertTrue(FunctionPolicy.globMatches("*", ""));
    assertTrue(FunctionPolicy.globMatches("a*b*c", "axxbyyc"));
    assertFalse(FunctionPolicy.globMatches("a*b", "ab.c"));
    assertFalse(FunctionPolicy.globMatches("ab*ba", "aba"));
    assertFalse(FunctionPolicy.globMatches("a*a", "a"));
    assertTrue(FunctionPolicy.globMatches("a**b", "ab"));
  }
}
