package dev.praxis.client;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonSyntaxException;
import com.google.gson.ToNumberPolicy;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Typed JSON for the {@code *_json} fields, with Gson. {@link #toJson} writes canonical JSON
 * (object keys sorted, no insignificant whitespace); {@link #fromJson} reads the empty string
 * as {@code null}. Non-finite numbers ({@code NaN}, infinities) and cyclic structures are not
 * JSON: encoding them throws {@link NotJsonException}.
 */
public final class Json {
  private static final Gson GSON = new GsonBuilder()
      .disableHtmlEscaping()
      .serializeNulls()
      // Numbers read into Object keep their text (1 stays 1, never 1.0): the engine's
      // documents allow only integers, and quantities travel as decimal strings.
      .setObjectToNumberStrategy(ToNumberPolicy.LAZILY_PARSED_NUMBER)
      .create();

  private Json() {}

  /** A value that has no JSON encoding. */
  public static final class NotJsonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotJsonException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Encodes a value (maps, lists, arrays, strings, numbers, booleans, null, records and plain
   * objects, Gson {@link JsonElement}s) as canonical JSON text.
   *
   * @throws NotJsonException when the value cannot be encoded
   */
  public static String toJson(Object value) {
    JsonElement tree;
    try {
      tree = value instanceof JsonElement e ? e : GSON.toJsonTree(value);
    } catch (StackOverflowError e) {
      throw new NotJsonException("a cyclic or too deeply nested structure", null);
    } catch (RuntimeException e) {
      throw new NotJsonException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
    try {
      return GSON.toJson(sorted(tree));
    } catch (RuntimeException e) {
      throw new NotJsonException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  /** Decodes JSON text into a tree ({@code JsonNull} for the empty string). */
  public static JsonElement parse(String json) {
    return json == null || json.isEmpty() ? com.google.gson.JsonNull.INSTANCE : JsonParser.parseString(json);
  }

  /**
   * Decodes JSON text into {@code type} (a class, or a {@code TypeToken}'s type for generics);
   * the empty string gives {@code null}.
   *
   * @throws JsonSyntaxException when the text is not JSON of that type
   */
  public static <T> T fromJson(String json, Type type) {
    if (json == null || json.isEmpty()) {
      return null;
    }
    return GSON.fromJson(json, type);
  }

  /**
   * Decodes JSON text into plain Java values: maps, lists, strings, booleans, null, and numbers
   * as {@link Number}s that keep their text exactly ({@code 1} reads back as {@code 1}).
   */
  public static Object fromJson(String json) {
    return fromJson(json, Object.class);
  }

  private static JsonElement sorted(JsonElement element) {
    if (element.isJsonObject()) {
      JsonObject out = new JsonObject();
      List<Map.Entry<String, JsonElement>> entries = new ArrayList<>(element.getAsJsonObject().entrySet());
      entries.sort(Map.Entry.comparingByKey());
      for (Map.Entry<String, JsonElement> e : entries) {
        out.add(e.getKey(), sorted(e.getValue()));
      }
      return out;
    }
    if (element.isJsonArray()) {
      JsonArray out = new JsonArray();
      for (JsonElement e : element.getAsJsonArray()) {
        out.add(sorted(e));
      }
      return out;
    }
    return element;
  }
}
