package dev.voiceagent.domain.workflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The CSV report of runs: the reference's columns, one per extracted variable in between. */
public final class RunReport {

    private RunReport() {
    }

    public static List<String> header(List<String> extractedVariables) {
        List<String> header = new ArrayList<>(List.of("Run ID", "Campaign ID", "Agent ID", "Agent Definition ID",
                "Created At", "Phone Number", "Call Disposition", "Call Duration (s)"));
        header.addAll(extractedVariables);
        header.addAll(List.of("Call Tags", "Transcript URL", "Recording URL"));
        return header;
    }

    public static List<String> row(WorkflowRun run, List<String> extractedVariables) {
        Map<String, Object> gathered = run.gatheredContext() == null ? Map.of() : run.gatheredContext();
        Map<String, Object> initial = run.initialContext() == null ? Map.of() : run.initialContext();
        Map<String, Object> extracted = JsonTree.asMap(gathered.get("extracted_variables"));
        List<String> row = new ArrayList<>(List.of(String.valueOf(run.id()),
                run.campaignId() == null ? "" : String.valueOf(run.campaignId()), String.valueOf(run.workflowId()),
                String.valueOf(run.definitionId()), run.createdAt().toString(), text(initial.get("phone_number")),
                text(run.disposition()), run.durationSeconds() == null ? "" : plain(run.durationSeconds())));
        for (String variable : extractedVariables) {
            row.add(extracted == null ? "" : text(extracted.get(variable)));
        }
        List<?> tags = JsonTree.asList(gathered.get("call_tags"));
        row.add(tags == null ? "" : String.join(", ", tags.stream().map(String::valueOf).toList()));
        row.add(text(run.transcriptUrl()));
        row.add(text(run.recordingUrl()));
        return row;
    }

    /** One RFC 4180 line: fields with a comma, quote or line break are quoted, quotes doubled. */
    public static String csvLine(List<String> fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            String f = fields.get(i) == null ? "" : fields.get(i);
            if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\n') >= 0 || f.indexOf('\r') >= 0) {
                line.append('"').append(f.replace("\"", "\"\"")).append('"');
            } else {
                line.append(f);
            }
        }
        return line.append("\r\n").toString();
    }

    private static String text(Object value) {
        return value == null ? "" : String.valueOf(value);
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
