package dev.voiceagent.adapters.telephony.twilio;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

/**
 * The TwiML that streams a call to the voice runtime: {@code <Connect><Stream>} to the run's signed media address
 * (marked resumable), then {@code <Redirect>} back to this service. When the stream ends without the call ending (the
 * replica drained or died), Twilio goes on to the redirect and is told where to stream the call now; when the call
 * ends, nothing follows.
 */
public final class TwilioStreams {

    private TwilioStreams() {
    }

    /** The path Twilio is redirected to when a call's stream ended (signed as its other webhooks). */
    public static String resumePath(long runId) {
        return "/api/v1/telephony/twilio/resume/" + runId;
    }

    /** The call streamed to {@code streamUrl}, then redirected back here when the stream ends. */
    public static Twiml connect(String streamUrl, long runId, String callbackBase) {
        return response(
                element("Connect").with(element("Stream").attribute("url", streamUrl).with(
                        element("Parameter").attribute("name", "workflow_run_id").attribute("value", runId),
                        element("Parameter").attribute("name", "resumable").attribute("value", true))),
                element("Redirect").attribute("method", "POST").text(callbackBase + resumePath(runId)));
    }
}
