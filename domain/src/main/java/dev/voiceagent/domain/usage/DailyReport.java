package dev.voiceagent.domain.usage;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A day of an organization's runs in a time zone (reference 6.12): how many, how many were transferred, the
 * dispositions (the five most frequent, the rest folded into "Other") and the call durations in fixed buckets,
 * each with percentages that add up to exactly 100.
 */
public record DailyReport(LocalDate date, String timezone, Long workflowId, long totalRuns, long transfers,
        List<Share> dispositions, List<Bucket> durations) {

    public static final int TOP_DISPOSITIONS = 5;
    public static final String OTHER = "Other";
    public static final String UNKNOWN = "UNKNOWN";
    public static final String TRANSFER = "XFER";

    /** Buckets of call duration in seconds: [start, end), the last open-ended. */
    public static final List<Bounds> BUCKETS = List.of(new Bounds("0-10", 0, 10), new Bounds("10-30", 10, 30),
            new Bounds("30-60", 30, 60), new Bounds("60-120", 60, 120), new Bounds("120-180", 120, 180),
            new Bounds(">180", 180, null));

    public record Bounds(String label, int start, Integer end) {
    }

    public record Share(String disposition, long count, BigDecimal percentage) {
    }

    public record Bucket(String bucket, int rangeStart, Integer rangeEnd, long count, BigDecimal percentage) {
    }

    /** The instants [start, end) of a calendar day in a zone: 23 or 25 hours long on a daylight-saving change. */
    public static Instant[] window(LocalDate date, ZoneId zone) {
        return new Instant[] {date.atStartOfDay(zone).toInstant(), date.plusDays(1).atStartOfDay(zone).toInstant()};
    }

    /**
     * @param dispositionCounts runs per mapped disposition (runs that gathered nothing are not counted)
     * @param bucketCounts      runs with a duration per bucket label of {@link #BUCKETS}
     */
    public static DailyReport of(LocalDate date, String timezone, Long workflowId, long totalRuns, long transfers,
            Map<String, Long> dispositionCounts, Map<String, Long> bucketCounts) {
        List<Map.Entry<String, Long>> sorted = dispositionCounts.entrySet().stream()
                .sorted(Comparator.comparing(Map.Entry<String, Long>::getValue).reversed()
                        .thenComparing(Map.Entry::getKey))
                .toList();
        List<String> names = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        long other = 0;
        for (int i = 0; i < sorted.size(); i++) {
            if (i < TOP_DISPOSITIONS) {
                names.add(sorted.get(i).getKey());
                counts.add(sorted.get(i).getValue());
            } else {
                other += sorted.get(i).getValue();
            }
        }
        if (other > 0) {
            names.add(OTHER);
            counts.add(other);
        }
        List<BigDecimal> shares = Percentages.of(counts);
        List<Share> dispositions = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            dispositions.add(new Share(names.get(i), counts.get(i), shares.get(i)));
        }
        List<Long> perBucket = BUCKETS.stream().map(b -> bucketCounts.getOrDefault(b.label(), 0L)).toList();
        List<BigDecimal> bucketShares = Percentages.of(perBucket);
        List<Bucket> durations = new ArrayList<>();
        for (int i = 0; i < BUCKETS.size(); i++) {
            Bounds b = BUCKETS.get(i);
            durations.add(new Bucket(b.label(), b.start(), b.end(), perBucket.get(i), bucketShares.get(i)));
        }
        return new DailyReport(date, timezone, workflowId, totalRuns, transfers, List.copyOf(dispositions),
                List.copyOf(durations));
    }
}
