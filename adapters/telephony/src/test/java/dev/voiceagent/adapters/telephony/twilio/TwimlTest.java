package dev.voiceagent.adapters.telephony.twilio;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.call.Transfer;
import org.junit.jupiter.api.Test;

/** The TwiML this service gives Twilio, written by one builder: every value escaped, the documents as before. */
class TwimlTest {

    private static final String DECLARATION = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

    @Test
    void elementsNestWithTheirAttributesAndTextEscapedAndEmptyOnesClosedAtOnce() {
        Twiml twiml = response(element("Say").attribute("voice", "a \"b\" & <c>").text("1 < 2 & \"3\" > 0"),
                element("Pause").attribute("length", 2), element("Hangup"));

        assertThat(twiml.xml()).isEqualTo("<Response><Say voice=\"a &quot;b&quot; &amp; &lt;c&gt;\">"
                + "1 &lt; 2 &amp; &quot;3&quot; &gt; 0</Say><Pause length=\"2\"/><Hangup/></Response>");
        assertThat(twiml.document()).isEqualTo(DECLARATION + twiml.xml());
        assertThat(response(element("Reject").attribute("reason", "busy")).document())
                .isEqualTo(DECLARATION + "<Response><Reject reason=\"busy\"/></Response>");
        assertThat(response(element("Reject")).xml()).isEqualTo("<Response><Reject/></Response>");
    }

    @Test
    void aCallIsStreamedToItsSignedAddressThenRedirectedBack() {
        Twiml connect = TwilioStreams.connect("wss://voice.example.com/api/v1/telephony/ws/2/1/3/sig?a=1&b=2", 3,
                "https://api.example.com");

        assertThat(connect.xml()).isEqualTo("<Response><Connect><Stream url=\"wss://voice.example.com/api/v1/telephony/"
                + "ws/2/1/3/sig?a=1&amp;b=2\"><Parameter name=\"workflow_run_id\" value=\"3\"/><Parameter"
                + " name=\"resumable\" value=\"true\"/></Stream></Connect><Redirect method=\"POST\">"
                + "https://api.example.com/api/v1/telephony/twilio/resume/3</Redirect></Response>");
    }

    @Test
    void aTransferDialsItsNumberWithItsWhisperOrItsSipAddress() {
        Transfer whispered = new Transfer(3, " +14155550199 ", 20, "A caller about order A-17 & its refund.", null);
        assertThat(TwilioCallGateway.dial(whispered, "https://api.example.com").xml()).isEqualTo(
                "<Response><Dial timeout=\"20\" answerOnBridge=\"true\"><Number url=\"https://api.example.com/api/v1/"
                        + "telephony/twilio/whisper/3?say=A+caller+about+order+A-17+%26+its+refund.\">+14155550199"
                        + "</Number></Dial></Response>");

        Transfer sip = new Transfer(3, "SIP:desk@pbx.example.com;transport=tls?x=1&y=2", 30, null, null);
        assertThat(TwilioCallGateway.dial(sip, "https://api.example.com").xml()).isEqualTo(
                "<Response><Dial timeout=\"30\" answerOnBridge=\"true\"><Sip>SIP:desk@pbx.example.com;transport=tls"
                        + "?x=1&amp;y=2</Sip></Dial></Response>");
    }

    @Test
    void aWhisperPlaysItsRecordingThenSaysItsLine() {
        assertThat(TwilioWhisper.twiml("https://files.example.com/r/7.wav?sig=a&exp=9", "Order <A-17> & its refund")
                .document()).isEqualTo(DECLARATION + "<Response><Play>https://files.example.com/r/7.wav?sig=a&amp;"
                        + "exp=9</Play><Say>Order &lt;A-17&gt; &amp; its refund</Say></Response>");
        assertThat(TwilioWhisper.twiml(null, " ").xml()).isEqualTo("<Response/>");
    }

    @Test
    void aCallThatMustNotGoOnIsHungUp() {
        assertThat(TwilioResumeResource.HANG_UP).isEqualTo(DECLARATION + "<Response><Hangup/></Response>");
    }
}
