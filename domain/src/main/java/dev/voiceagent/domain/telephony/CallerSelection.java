package dev.voiceagent.domain.telephony;

import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** Which number a single call comes from: the one asked for, else the default caller, else a random active one. */
public final class CallerSelection {

    private CallerSelection() {
    }

    public record Number(long id, String address, boolean active, boolean defaultCaller) {
    }

    public static Optional<Number> choose(List<Number> numbers, Long requestedId, RandomGenerator random) {
        if (requestedId != null) {
            return numbers.stream().filter(n -> n.id() == requestedId && n.active()).findFirst();
        }
        Optional<Number> byDefault = numbers.stream().filter(n -> n.active() && n.defaultCaller()).findFirst();
        if (byDefault.isPresent()) {
            return byDefault;
        }
        List<Number> active = numbers.stream().filter(Number::active).toList();
        return active.isEmpty() ? Optional.empty() : Optional.of(active.get(random.nextInt(active.size())));
    }
}
