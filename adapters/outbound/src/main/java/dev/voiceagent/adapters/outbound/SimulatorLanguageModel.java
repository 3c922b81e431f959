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
 * the most words with the message (words compared by their first five letters, so "cancel" meets "cancelled"; a
 * plain yes, okay or sure meets a condition about being ready, continuing or agreeing; none when nothing is shared),
 * records the extraction variables it can read as "name is value" or "name: value", and otherwise answers from what
 * the caller said and the node's purpose: what it heard, then the node's first instruction as a line a person would
 * say ("Ask about the budget." becomes "Can you tell me about the budget?"; a node that says goodbye says it). A tool
 * whose name's words all appear in the message is called with the arguments it can read the same way ("order id is
 * A-17"); after a tool's answer it says what the tool answered. The same request always gets the same answer.
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
            Set<String> words = stems(said);
            boolean yes = affirmative(said);
            for (FunctionSpec function : request.functions()) {
                if (function.kind() == FunctionSpec.Kind.TRANSITION) {
                    Set<String> condition = stems(function.description());
                    Set<String> shared = new LinkedHashSet<>(condition);
                    shared.retainAll(words);
                    int score = shared.size() + (yes && condition.stream().anyMatch(AGREEING::contains) ? 1 : 0);
                    if (score > bestScore) {
                        best = function;
                        bestScore = score;
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
        String said = last.role() == ChatMessage.Role.USER ? last.content() : null;
        String text = !calls.isEmpty() ? null : toolAnswer != null ? toolAnswer : reply(request.systemPrompt(), said);
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

    /** What it says on a turn without a transition or a tool: what it heard, then the node's purpose. */
    static String reply(String systemPrompt, String said) {
        String purpose = line(systemPrompt);
        if (said == null || said.isBlank()) {
            return purpose;
        }
        String heard = said.strip().replaceAll("\\s+", " ");
        heard = heard.length() <= 80 ? heard : heard.substring(0, 77) + "...";
        return "I heard: " + (heard.matches(".*[.!?]$") ? heard : heard + ".") + " " + purpose;
    }

    /**
     * The node's first instruction (of its own prompt, the system prompt's last paragraph) as a line a person says;
     * a prompt that only says who the agent is says that, in the first person.
     */
    static String line(String systemPrompt) {
        if (systemPrompt == null || systemPrompt.isBlank()) {
            return "Hello.";
        }
        String[] paragraphs = systemPrompt.strip().split("\\n\\s*\\n");
        String own = paragraphs[paragraphs.length - 1].strip().replaceAll("\\s+", " ");
        String[] sentences = own.split("(?<=[.!?])\\s+");
        String chosen = null;
        for (String sentence : sentences) {
            if (!PERSONA.matcher(sentence).lookingAt()) {
                chosen = spoken(sentence);
                break;
            }
        }
        if (chosen == null) {
            chosen = PERSONA.matcher(sentences[0]).replaceFirst("I am ");
        }
        return chosen.length() <= MAX_LINE ? chosen : chosen.substring(0, MAX_LINE - 3) + "...";
    }

    private static final Pattern PERSONA = Pattern.compile("(?i)(you are|you're|act as) ");
    private static final Pattern ASK = Pattern.compile("(?i)^ask (the caller |them )?(about|for|whether|if)?\\s*(.+?)[.!?]?$");
    private static final Pattern REMIND = Pattern.compile("(?i)^remind \\S+ (of|about) (.+)$");
    private static final Set<String> AFFIRMATIVE = Set.of("yes", "yeah", "yep", "sure", "okay", "ok", "fine",
            "ready", "go", "ahead", "continue", "please", "alright", "absolutely", "certainly");
    /** Words of a condition a plain yes meets (as stems: their first five letters). */
    private static final Set<String> AGREEING = Set.of("ready", "conti", "agree", "engag", "yes", "willi", "accep",
            "conse", "inter");

    /** An instruction as said to the caller: questions asked, reminders given, a goodbye said. */
    private static String spoken(String instruction) {
        String sentence = instruction.strip();
        if (sentence.toLowerCase(Locale.ROOT).contains("goodbye")) {
            return "Thank you for your time. Goodbye.";
        }
        String[] clauses = sentence.replaceAll("[.!?]$", "").split("(?i),? and (?=ask )");
        List<String> said = new ArrayList<>();
        for (String clause : clauses) {
            Matcher ask = ASK.matcher(clause.strip());
            Matcher remind = REMIND.matcher(clause.strip());
            if (ask.matches()) {
                String what = toCaller(ask.group(3));
                String how = ask.group(2) == null ? "" : ask.group(2).toLowerCase(Locale.ROOT);
                said.add(switch (how) {
                    case "about" -> "Can you tell me about " + what + "?";
                    case "for" -> "Could you give me " + what + "?";
                    case "whether", "if" -> "Can you tell me whether " + what + "?";
                    default -> "May I ask " + what + "?";
                });
            } else if (remind.matches()) {
                said.add("This is a reminder of " + toCaller(remind.group(2)) + ".");
            } else {
                said.add(clause.strip() + ".");
            }
        }
        return String.join(" ", said);
    }

    /** An instruction's words about the caller, said to them. */
    private static String toCaller(String text) {
        return (" " + text + " ").replaceAll("(?i) they are ", " you are ").replaceAll("(?i) they ", " you ")
                .replaceAll("(?i) their ", " your ").replaceAll("(?i) them ", " you ").strip();
    }

    private static boolean affirmative(String said) {
        Matcher m = WORD.matcher(said.toLowerCase(Locale.ROOT));
        List<String> all = new ArrayList<>();
        while (m.find()) {
            all.add(m.group());
        }
        return !all.isEmpty() && all.size() <= 6 && AFFIRMATIVE.contains(all.getFirst());
    }

    /** The words that count, by their first five letters. */
    private static Set<String> stems(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String word : words(text)) {
            out.add(word.length() > 5 ? word.substring(0, 5) : word);
        }
        return out;
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
