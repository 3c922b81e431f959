package dev.voiceagent.adapters.rest.workflow;

import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.RestMulti;

/** Run reports as streamed CSV attachments, and their start_date / end_date bounds (inclusive). */
public final class ReportDownloads {

    private ReportDownloads() {
    }

    /** An ISO date-time, or a date: its first instant as a start, its last as an end; 422 otherwise. */
    public static Instant date(String name, String value, boolean endOfDay) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            try {
                LocalDate day = LocalDate.parse(value);
                return endOfDay ? day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusNanos(1000)
                        : day.atStartOfDay().toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException again) {
                throw new RequestValidationException(ValidationError.of(List.of("query", name),
                        "Input should be a valid datetime or date", "datetime_from_date_parsing", value));
            }
        }
    }

    /** Errors before the first line (404) keep their status; the lines stream without being held in memory. */
    public static RestMulti<String> csvAttachment(Uni<Multi<String>> lines, String fileName) {
        return RestMulti.fromUniResponse(lines, l -> l,
                l -> Map.of("Content-Disposition", List.of("attachment; filename=\"" + fileName + "\"")));
    }
}
