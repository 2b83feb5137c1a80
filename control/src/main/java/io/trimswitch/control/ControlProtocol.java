package io.trimswitch.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.OneLine;

import java.util.ArrayList;
import java.util.List;

/**
 * The control socket's wire format, one line each way. A request is a JSON array of strings, the command's words:
 * {@code ["set","trim.dscp","12"]}. A reply is an object: {@code {"ok":true,"text":"…","data":…}}, or
 * {@code {"ok":false,"error":"one line"}} when the request or the command was refused.
 */
public final class ControlProtocol {
    static final int MAX_WORDS = 64;
    static final int MAX_WORD_CHARS = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ControlProtocol() {
    }

    /** A reply as the client reads it. */
    public record Reply(boolean ok, String text, JsonNode data, String error) {
    }

    /** The request line for {@code words}. */
    public static String request(final List<String> words) {
        try {
            return JSON.writeValueAsString(words);
        } catch (final JsonProcessingException e) {
            throw new IllegalStateException("words are always JSON", e);
        }
    }

    /** Loads what reading a reply needs, so that a client loads nothing while a switch waits on it. */
    static void prepare() {
        reply("{\"ok\":true,\"text\":\"\"}");
    }

    /** Parses {@code request}, runs it and returns the reply line; never throws for anything a client sends. */
    static String run(final String request, final ControlCommands commands) {
        final List<String> words;
        try {
            words = words(request);
        } catch (final ConfigException e) {
            return error(e.getMessage());
        }
        try {
            final ControlReply reply = commands.run(words);
            final ObjectNode out = JSON.createObjectNode();
            out.put("ok", true);
            out.put("text", reply.text());
            out.set("data", JSON.valueToTree(reply.data()));
            return JSON.writeValueAsString(out);
        } catch (final ConfigException e) {
            return error(e.getMessage());
        } catch (final JsonProcessingException | RuntimeException | Error e) {
            // A command that broke (even out of memory) must not take the socket down with it; the client gets the reason in one line.
            return error(words.getFirst() + ": failed: " + OneLine.of(String.valueOf(e)));
        }
    }

    static List<String> words(final String request) {
        final JsonNode tree;
        try {
            tree = JSON.readTree(request);
        } catch (final JsonProcessingException e) {
            throw new ConfigException("the request is not JSON: " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isArray() || tree.isEmpty() || tree.size() > MAX_WORDS) {
            throw new ConfigException("the request must be a JSON array of 1.." + MAX_WORDS + " words");
        }
        final List<String> words = new ArrayList<>(tree.size());
        for (final JsonNode word : tree) {
            if (!word.isTextual() || word.asText().length() > MAX_WORD_CHARS) {
                throw new ConfigException("every word of a request must be a string of at most " + MAX_WORD_CHARS + " characters");
            }
            words.add(word.asText());
        }
        return List.copyOf(words);
    }

    static String error(final String message) {
        final ObjectNode out = JSON.createObjectNode();
        out.put("ok", false);
        out.put("error", OneLine.of(message));
        try {
            return JSON.writeValueAsString(out);
        } catch (final JsonProcessingException e) {
            throw new IllegalStateException("an error is always JSON", e);
        }
    }

    /** Reads a reply line; one that is not a reply is refused in one line. */
    public static Reply reply(final String line) {
        try {
            final JsonNode tree = JSON.readTree(line);
            if (tree != null && tree.isObject() && tree.path("ok").isBoolean()) {
                return tree.get("ok").asBoolean()
                    ? new Reply(true, tree.path("text").asText(""), tree.path("data"), null)
                    : new Reply(false, null, null, tree.path("error").asText("refused"));
            }
        } catch (final JsonProcessingException e) {
            // Falls through to the one-line refusal.
        }
        if (line.isBlank()) {
            throw new ConfigException("the control socket closed without a reply (a switch that stopped, or a socket no switch serves)");
        }
        throw new ConfigException("the control socket's answer is not a reply: " + OneLine.of(line.length() > 200 ? line.substring(0, 200) : line));
    }
}
