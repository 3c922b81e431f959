package dev.voiceagent.deploy.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hexagon's arrows. Every rule refuses to pass on an empty selection, and the layers are
 * checked to be non-empty, so a renamed package cannot make this test pass vacuously.
 */
class DependencyRuleTest {

    private static final String ROOT = "dev.voiceagent";
    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void everyLayerHasClasses() {
        for (String layer : new String[] {"domain", "application", "adapters.rest", "adapters.postgres",
                "adapters.telephony", "adapters.storage", "adapters.scheduler", "adapters.outbound", "adapters.documents",
                "adapters.payments", "adapters.media", "adapters.vad", "adapters.simulator", "deploy"}) {
            assertThat(classes.stream().filter(c -> c.getPackageName().startsWith(ROOT + "." + layer)))
                    .as("classes in %s", layer).isNotEmpty();
        }
    }

    @Test
    void domainImportsOnlyJava() {
        classes().that().resideInAPackage(ROOT + ".domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", ROOT + ".domain..")
                .allowEmptyShould(false)
                .check(classes);
    }

    /**
     * Of the container, the application sees only the annotations of jakarta.inject (@Singleton, @Inject), by which a
     * service declares itself a bean; no CDI, Quarkus, configuration or persistence API.
     */
    @Test
    void applicationImportsOnlyDomainJavaMutinyAndInjectAnnotations() {
        classes().that().resideInAPackage(ROOT + ".application..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", ROOT + ".domain..", ROOT + ".application..", "io.smallrye.mutiny..",
                        "jakarta.inject..")
                .allowEmptyShould(false)
                .check(classes);
    }

    /**
     * Feature packages depend on each other in one direction only: a package that needs what two features share
     * finds it in a package of its own (application.shared for the caller's Principal, application.dispatch for what
     * the dispatcher and the call reports both use), never by importing back.
     */
    @Test
    void applicationFeaturePackagesAreFreeOfCycles() {
        slices().matching(ROOT + ".application.(*)..").should().beFreeOfCycles()
                .allowEmptyShould(false)
                .check(classes);
    }

    @Test
    void domainFeaturePackagesAreFreeOfCycles() {
        slices().matching(ROOT + ".domain.(*)..").should().beFreeOfCycles()
                .allowEmptyShould(false)
                .check(classes);
    }

    @Test
    void adaptersDoNotImportEachOther() {
        slices().matching(ROOT + ".adapters.(*)..").should().notDependOnEachOther()
                .allowEmptyShould(false)
                .check(classes);
    }

    /**
     * Adapters talk to the application through its ports only: use-case interfaces, out-port
     * interfaces and the records, enums and exceptions they carry. Never through an implementation
     * class (a ...Service, a helper), which the composition root alone may see.
     */
    @Test
    void adaptersUsePortsNotApplicationImplementations() {
        DescribedPredicate<JavaClass> implementation = DescribedPredicate.describe("an application implementation class",
                c -> c.getPackageName().startsWith(ROOT + ".application") && !c.isInterface() && !c.isRecord()
                        && !c.isEnum() && !c.isAssignableTo(Throwable.class)
                        && !(c.getEnclosingClass().isPresent() && c.getEnclosingClass().get().isInterface()));
        classes().that().resideInAPackage(ROOT + ".adapters..")
                .should().onlyDependOnClassesThat(DescribedPredicate.not(implementation))
                .allowEmptyShould(false)
                .check(classes);
    }

    /**
     * The voice runtime shows the adapters its ports only ({@code voice.runtime.port.in}: what drives a call,
     * {@code port.out}: what a call drives): its sessions and services are internals, and the ports never name them.
     */
    @Test
    void theVoiceRuntimeIsReachedThroughItsPortsOnly() {
        String runtime = ROOT + ".application.voice.runtime";
        DescribedPredicate<JavaClass> internals = DescribedPredicate.describe("the voice runtime's internals",
                c -> c.getPackageName().startsWith(runtime) && !c.getPackageName().startsWith(runtime + ".port"));
        noClasses().that().resideInAPackage(ROOT + ".adapters..")
                .should().dependOnClassesThat(internals)
                .allowEmptyShould(false)
                .check(classes);
        noClasses().that().resideInAPackage(runtime + ".port..")
                .should().dependOnClassesThat(internals)
                .allowEmptyShould(false)
                .check(classes);
    }

    @Test
    void onlyTheCompositionRootSeesTheAdapters() {
        classes().that().resideInAnyPackage(ROOT + ".domain..", ROOT + ".application..")
                .should().onlyDependOnClassesThat().resideOutsideOfPackages(ROOT + ".adapters..", ROOT + ".deploy..")
                .allowEmptyShould(false)
                .check(classes);
    }
}
