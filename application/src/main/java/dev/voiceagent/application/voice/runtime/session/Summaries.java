package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.domain.conversation.ContextCompaction;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.TurnEvent;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A long call's older turns summarised by the model when the workflow asks for it ({@code context_compaction_enabled})
 * and the conversation is due ({@link ContextCompaction}): one summary at a time, written between turns by the call's
 * current language model and placed in the conversation once the turn in progress finished (the turn was asked
 * without it, and its result would drop it); its tokens count to the call. A summary that fails leaves the
 * conversation whole, the reason in the log. On the call's loop only.
 */
final class Summaries {

    private record Written(int cut, String text) {
    }

    private final boolean enabled;
    private final Generation generation;
    private final CallLoop loop;
    private final CallLog log;
    private final Consumer<TokenUsage> spent;
    private boolean writing;
    private Written written;
    private boolean over;

    Summaries(boolean enabled, Generation generation, CallLoop loop, CallLog log, Consumer<TokenUsage> spent) {
        this.enabled = enabled;
        this.generation = generation;
        this.loop = loop;
        this.log = log;
        this.spent = spent;
    }

    /** A turn finished with {@code conversation}: a summary is asked for when it is due. */
    void after(ConversationState conversation) {
        if (!enabled || writing || over) {
            return;
        }
        ContextCompaction.due(conversation).ifPresent(due -> {
            writing = true;
            generation.summarize(due.request()).subscribe().with(
                    reply -> loop.execute(() -> {
                        writing = false;
                        if (!over && reply.text() != null && !reply.text().isBlank()) {
                            written = new Written(due.cut(), reply.text());
                            spent.accept(reply.usage());
                            log.add(new FeedbackEvent.Engine(new TurnEvent(ContextCompaction.EVENT,
                                    Map.of("summarised_messages", due.cut()))));
                        }
                    }),
                    failure -> loop.execute(() -> {
                        writing = false;
                        log.add(FeedbackEvent.PipelineError.warning("context compaction: " + failure.getMessage()));
                    }));
        });
    }

    /** The conversation a turn finished with, the summary written meanwhile placed in it. */
    ConversationState placed(ConversationState conversation) {
        if (written == null) {
            return conversation;
        }
        ConversationState out = ContextCompaction.apply(conversation, written.cut(), written.text());
        written = null;
        return out;
    }

    /** The call ended: nothing more is asked or placed. */
    void close() {
        over = true;
    }
}
