package dev.voiceagent.deploy;

import dev.voiceagent.adapters.outbound.speech.SpeechProviders;
import dev.voiceagent.adapters.simulator.SimulatorSpeech;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.voice.runtime.CarrierCalls;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The voice runtime's speech ports: the model provider "simulator" is the simulator's speech (FreeTTS and the
 * speech-to-text oracle, adapters/simulator); every other provider is a real one (adapters/outbound's speech).
 */
public class VoiceProducers {

    @Produces
    @Singleton
    SpeechToText speechToText(SpeechProviders providers, SimulatorSpeech simulator) {
        return (endpoint, format, listener) -> SimulatorSpeech.PROVIDER.equals(endpoint.provider())
                ? simulator.open(endpoint, format, listener) : providers.open(endpoint, format, listener);
    }

    @Produces
    @Singleton
    TextToSpeech textToSpeech(SpeechProviders providers, SimulatorSpeech simulator) {
        return (endpoint, format, listener) -> SimulatorSpeech.PROVIDER.equals(endpoint.provider())
                ? simulator.open(endpoint, format, listener) : providers.open(endpoint, format, listener);
    }

    @Produces
    @Singleton
    CarrierCalls carrierCalls(CallRepository calls, TelephonyConfigurationRepository configurations,
            ProcessCallReportUseCase reports, @Any Instance<CallGateway> gateways) {
        return new CarrierCalls(calls, configurations, reports, gateways.stream().toList());
    }
}
