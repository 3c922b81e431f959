package dev.voiceagent.application.trace;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A finished span as the runtime saw it: its name, start and end, attributes (strings, numbers, booleans), its
 * children and its timed events. Built by the session that measured it; the adapter only turns it into its protocol.
 */
public record TraceSpan(String name, Instant start, Instant end, Map<String, Object> attributes,
        List<TraceSpan> children, List<Event> events) {

    /** The most characters an attribute's text keeps (a prompt, a tool's result). */
    public static final int MAX_TEXT = 2_000;

    public TraceSpan {
        end = end.isBefore(start) ? start : end;
        attributes = kept(attributes);
        children = List.copyOf(children);
        events = List.copyOf(events);
    }

    /** Something that happened at an instant within a span (the first audio out, a barge-in, a transition). */
    public record Event(String name, Instant at, Map<String, Object> attributes) {

        public Event {
            attributes = kept(attributes);
        }
    }

    /** Attributes without nulls, each text cut to {@link #MAX_TEXT} characters. */
    static Map<String, Object> kept(Map<String, Object> attributes) {
        Map<String, Object> kept = new LinkedHashMap<>();
        attributes.forEach((k, v) -> {
            if (v != null) {
                kept.put(k, v instanceof String s && s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) + "…" : v);
            }
        });
        return Collections.unmodifiableMap(kept);
    }

    /** A span being put together: children and events added as they are known. */
    public static final class Builder {

        private final String name;
        private final Instant start;
        private final Map<String, Object> attributes = new LinkedHashMap<>();
        private final List<TraceSpan> children = new ArrayList<>();
        private final List<Event> events = new ArrayList<>();

        public Builder(String name, Instant start) {
            this.name = name;
            this.start = start;
        }

        public Builder attribute(String key, Object value) {
            if (value != null) {
                attributes.put(key, value);
            }
            return this;
        }

        public Builder child(TraceSpan child) {
            children.add(child);
            return this;
        }

        public Builder event(String eventName, Instant at, Map<String, Object> eventAttributes) {
            events.add(new Event(eventName, at, eventAttributes));
            return this;
        }

        public Instant start() {
            return start;
        }

        public TraceSpan end(Instant at) {
            return new TraceSpan(name, start, at, attributes, children, events);
        }
    }
}
