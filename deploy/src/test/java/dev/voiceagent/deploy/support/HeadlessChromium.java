package dev.voiceagent.deploy.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's Chromium, headless, with a fake microphone that plays a WAV file (Chromium loops it) and media permission
 * granted: a real browser for the pages of this project's tests. Installed by .ci/install-chromium; the tests that
 * need it are skipped where it is not, unless {@value #REQUIRED}=required (as in CI).
 */
public final class HeadlessChromium implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/chromium");
    static final String REQUIRED = "VOICEAGENT_TEST_CHROMIUM";

    private final Process process;
    private final Path profile;
    private final Path log;

    private HeadlessChromium(Process process, Path profile, Path log) {
        this.process = process;
        this.profile = profile;
        this.log = log;
    }

    /** Whether Chromium is installed; throws where it is required and missing. */
    public static boolean installed() {
        boolean installed = Files.isExecutable(BINARY);
        if (!installed && "required".equals(System.getenv(REQUIRED))) {
            throw new IllegalStateException("Chromium is required (" + REQUIRED + "=required) but " + BINARY
                    + " is missing: run .ci/install-chromium as root");
        }
        return installed;
    }

    /** Opens {@code url} with {@code microphone} (a WAV file) as the fake microphone. */
    public static HeadlessChromium open(String url, Path microphone) {
        try {
            Path profile = Files.createTempDirectory("chromium-profile-");
            Path log = Files.createTempFile("chromium-", ".log");
            List<String> command = new ArrayList<>(List.of(BINARY.toString(), "--headless=new", "--disable-gpu",
                    "--no-first-run", "--no-default-browser-check", "--user-data-dir=" + profile,
                    "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                    "--use-file-for-fake-audio-capture=" + microphone, "--autoplay-policy=no-user-gesture-required",
                    "--disable-dev-shm-usage"));
            if ("root".equals(System.getProperty("user.name"))) {
                command.add("--no-sandbox"); // Chromium's sandbox refuses to run as root
            }
            command.add(url);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new HeadlessChromium(process, profile, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start Chromium", e);
        }
    }

    /** The end of Chromium's own log (for a failing test's message). */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // temporary files left behind
        }
    }
}
