package dev.praxis.client.worker;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's function policy as the engine sends it in {@code Task.agent.functions_json}:
 * {@code {"allow": [...], "deny": [...]}} (docs/workers.md, "The agent's settings").
 *
 * @param allow patterns of the functions the agent may call
 * @param deny patterns of the functions it may not, whatever allow says
 */
public record FunctionPolicy(List<String> allow, List<String> deny) {

  /** The policy in {@code functionsJson}; every function when empty (an older engine). */
  public static FunctionPolicy of(String functionsJson) {
    if (functionsJson.isEmpty()) {
      return new FunctionPolicy(List.of("*"), List.of());
    }
    JsonObject raw = JsonParser.parseString(functionsJson).getAsJsonObject();
    return new FunctionPolicy(strings(raw.getAsJsonArray("allow")), strings(raw.getAsJsonArray("deny")));
  }

  private static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    if (array != null) {
      for (JsonElement item : array) {
        out.add(item.getAsString());
      }
    }
    return List.copyOf(out);
  }

  /** Whether {@code functionId} matches an allow pattern and no deny pattern. */
  public boolean permits(String functionId) {
    return allow.stream().anyMatch(p -> globMatches(p, functionId))
        && deny.stream().noneMatch(p -> globMatches(p, functionId));
  }

  /** Whether {@code text} matches {@code pattern} whole, {@code *} matching any run of characters. */
  public static boolean globMatches(String pattern, String text) {
    String[] parts = pattern.split("\\*", -1);
    if (parts.length == 1) {
      return text.equals(pattern);
    }
    String first = parts[0];
    String last = parts[parts.length - 1];
    if (text.length() < first.length() + last.length()
        || !text.startsWith(first)
        || !text.endsWith(last)) {
      return false;
    }
    int position = first.length();
    int end = text.length() - last.length();
    for (int i = 1; i < parts.length - 1; i++) {
      int found = text.substring(0, end).indexOf(parts[i], position);
      if (found < 0) {
        return false;
      }
      position = found + parts[i].length();
    }
    return true;
  }
}
