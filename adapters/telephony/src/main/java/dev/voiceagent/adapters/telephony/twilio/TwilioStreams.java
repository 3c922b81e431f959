package dev.voiceagent.adapters.telephony.twilio;

import dev.voiceagent.adapters.telephony.InboundCallResource;

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

    public static String connect(String streamUrl, long runId, String callbackBase) {
        return "<Response><Connect><Stream url=\"" + InboundCallResource.escape(streamUrl) + "\"><Parameter"
                + " name=\"workflow_run_id\" value=\"" + runId + "\"/><Parameter name=\"resumable\" value=\"true\"/>"
                + "</Stream></Connect><Redirect method=\"POST\">" + InboundCallResource.escape(callbackBase
                + resumePath(runId)) + "</Redirect></Response>";
    }
}
