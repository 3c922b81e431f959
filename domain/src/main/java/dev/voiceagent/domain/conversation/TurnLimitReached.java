package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.shared.DomainRuleViolation;

/** The conversation has had as many user turns as it may: the message is refused, the session stays as it was. */
public class TurnLimitReached extends DomainRuleViolation {

    public TurnLimitReached(int limit) {
        super("Message limit reached for this conversation (" + limit + " messages)");
    }
}
