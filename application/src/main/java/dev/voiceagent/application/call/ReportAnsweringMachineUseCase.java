package dev.voiceagent.application.call;

import io.smallrye.mutiny.Uni;

/**
 * The carrier's own answering-machine detection reported on a live call (Twilio's asynchronous AMD): the verdict is
 * kept on the run and reaches the call's voice session, wherever it talks, which follows the workflow's voicemail
 * detection with it (a person is answered without asking the model; a machine is hung up on or left its message
 * after the beep).
 */
public interface ReportAnsweringMachineUseCase {

    /** What the carrier decided. */
    enum Verdict {
        HUMAN, MACHINE, MACHINE_AFTER_GREETING, FAX, UNKNOWN;

        /** Twilio's AnsweredBy: human, machine_start, machine_end_beep / _silence / _other, fax, unknown. */
        public static Verdict ofTwilio(String answeredBy) {
            if (answeredBy == null) {
                return UNKNOWN;
            }
            return switch (answeredBy) {
                case "human" -> HUMAN;
                case "machine_start" -> MACHINE;
                case "machine_end_beep", "machine_end_silence", "machine_end_other" -> MACHINE_AFTER_GREETING;
                case "fax" -> FAX;
                default -> UNKNOWN;
            };
        }

        public boolean machine() {
            return this == MACHINE || this == MACHINE_AFTER_GREETING || this == FAX;
        }
    }

    Uni<Void> report(long runId, Verdict verdict);
}
