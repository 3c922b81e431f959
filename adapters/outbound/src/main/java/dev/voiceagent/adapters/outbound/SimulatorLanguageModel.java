package dev.voiceagent.adapters.outbound;

import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SIMULATOR, not a model: a deterministic stand-in behind the same port, for laptops, demos and tests (the
 * catalog lists it as provider "simulator"). After a user message it takes the edge whose condition shares
 * the most words with the message (none when no word is shared), records the extraction variables it can
 * read as "name is value" or "name: value", and otherwise answers with the first sentence of the current
 * node's own prompt. A tool whose name's words all appear in the message is called with the arguments it can
 * read the same way ("order id is A-17"); after a tool's answer it says what the tool answered. The same request
 * always gets the same answer.
 */
@Singleton
public class SimulatorLanguageModel {

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Set<String> STOP_WORDS = Set.of("the", "and", "for", "you", "your", "are", "was", "with",
            "that", "this", "they", "wants", "want", "caller", "user", "about", "has", "have", "asks", "ask");
    private static final int MAX_LINE = 200;

    public ModelReply complete(ModelRequest request) {
        List<ChatMessage> messages = request.messages();
        ChatMessage last = messages.getLast();
        List<ToolCall> calls = new ArrayList<>();
        if (last.role() == ChatMessage.Role.USER && last.content() != null) {
            String said = last.content();
            for (FunctionSpec function : request.functions()) {
                if (function.kind() == FunctionSpec.Kind.EXTRACTION) {
                    Map<String, Object> values = extract(function, said);
                    if (!values.isEmpty()) {
                        calls.add(new ToolCall(id(messages, calls), function.name(), values));
                    }
                }
            }
            FunctionSpec best = null;
            int bestScore = 0;
            Set<String> words = words(said);
            for (FunctionSpec function : request.functions()) {
                if (function.kind() == FunctionSpec.Kind.TRANSITION) {
                    Set<String> shared = words(function.description());
                    shared.retainAll(words);
                    if (shared.size() > bestScore) {
                        best = function;
                        bestScore = shared.size();
                    }
                }
            }
            if (best != null) {
                calls.add(new ToolCall(id(messages, calls), best.name(), Map.of()));
            }
            for (FunctionSpec function : request.functions()) {
                if (function.kind() == FunctionSpec.Kind.TOOL && best == null) {
                    Set<String> name = words(function.name().replace('_', ' '));
                    if (!name.isEmpty() && words(said).containsAll(name)) {
                        calls.add(new ToolCall(id(messages, calls), function.name(), extract(function, said)));
                        break;
                    }
                }
            }
        }
        String toolAnswer = toolAnswer(messages, request.functions());
        String text = !calls.isEmpty() ? null : toolAnswer != null ? toolAnswer : line(request.systemPrompt());
        long prompt = messages.stream().mapToLong(m -> words(m.content()).size()).sum();
        long completion = text == null ? calls.size() : words(text).size();
        return new ModelReply(text, calls, new TokenUsage(prompt, completion, prompt + completion));
    }

    /** After a tool's result (not a transition's): "The <tool> tool answered: <result>". */
    private static String toolAnswer(List<ChatMessage> messages, List<FunctionSpec> functions) {
        ChatMessage last = messages.getLast();
        if (last.role() != ChatMessage.Role.TOOL || last.toolCallId() == null) {
            return null;
        }
        for (int i = messages.size() - 1; i >= 0; i--) {
            for (ToolCall call : messages.get(i).toolCalls()) {
                if (call.id().equals(last.toolCallId())) {
                    boolean tool = functions.stream().anyMatch(f -> f.name().equals(call.name())
                            && f.kind() == FunctionSpec.Kind.TOOL);
                    if (!tool) {
                        return null;
                    }
                    String result = last.content() == null ? "" : last.content();
                    return "The " + call.name() + " tool answered: " + (result.length() <= MAX_LINE ? result
                            : result.substring(0, MAX_LINE - 3) + "...");
                }
            }
        }
        return null;
    }

    /** A call id that is the same for the same conversation: the message count and the call's position. */
    private static String id(List<ChatMessage> messages, List<ToolCall> calls) {
        return "sim_" + messages.size() + "_" + calls.size();
    }

    /** "name is value", "name: value" or "name = value" (underscores read as spaces), up to punctuation. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> extract(FunctionSpec function, String said) {
        Map<String, Object> values = new LinkedHashMap<>();
        Object properties = function.parameters().get("properties");
        if (!(properties instanceof Map<?, ?> props)) {
            return values;
        }
        for (String name : ((Map<String, Object>) props).keySet()) {
            String spoken = Pattern.quote(name.replace('_', ' ')).replace(" ", "\\E[ _]\\Q");
            Matcher m = Pattern.compile("(?i)\\b" + spoken + "\\s*(?:is|:|=)\\s*([^.,;!?\\n]+)").matcher(said);
            if (m.find()) {
                values.put(name, m.group(1).strip());
            }
        }
        return values;
    }

    /** The first sentence of the node's own prompt (the last paragraph of the system prompt). */
    static String line(String systemPrompt) {
        if (systemPrompt == null || systemPrompt.isBlank()) {
            return "Hello.";
        }
        String[] paragraphs = systemPrompt.strip().split("\\n\\s*\\n");
        String own = paragraphs[paragraphs.length - 1].strip().replaceAll("\\s+", " ");
        Matcher sentence = Pattern.compile("^(.+?[.!?])(\\s|$)").matcher(own);
        String first = sentence.find() ? sentence.group(1) : own;
        return first.length() <= MAX_LINE ? first : first.substring(0, MAX_LINE - 3) + "...";
    }

    private static Set<String> words(String text) {
        Set<String> out = new LinkedHashSet<>();
        if (text == null) {
            return out;
        }
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            String w = m.group();
            if (w.length() >= 3 && !STOP_WORDS.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }
}
