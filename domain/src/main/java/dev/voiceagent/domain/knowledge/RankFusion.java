package dev.voiceagent.domain.knowledge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal rank fusion: an item's score is the sum over the rankings it appears in of 1 / (k + rank), rank from
 * 1; k = 60 as in Cormack et al. Items keep the order of their best fused score (ties: first seen).
 */
public final class RankFusion {

    public static final int K = 60;

    private RankFusion() {
    }

    public static <T> List<T> fuse(List<List<T>> rankings, int limit) {
        Map<T, Double> scores = new LinkedHashMap<>();
        for (List<T> ranking : rankings) {
            for (int i = 0; i < ranking.size(); i++) {
                scores.merge(ranking.get(i), 1.0 / (K + i + 1), Double::sum);
            }
        }
        List<Map.Entry<T, Double>> entries = new ArrayList<>(scores.entrySet());
        entries.sort(Map.Entry.<T, Double>comparingByValue(Comparator.reverseOrder()));
        return entries.stream().limit(limit).map(Map.Entry::getKey).toList();
    }
}
