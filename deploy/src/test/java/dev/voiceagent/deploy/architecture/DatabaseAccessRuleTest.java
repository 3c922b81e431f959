package dev.voiceagent.deploy.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.Test;

/**
 * Every out-port the persistence adapter implements reports the database out of reach as the application's
 * DatabaseUnavailableException ({@link DatabaseAccess}): a repository added without it would answer an outage with a
 * 500 and make the ticks warn on every failure.
 */
class DatabaseAccessRuleTest {

    /** Beans (a port's session handed out inside a bean's call, such as the dispatch ledger's, fails within it). */
    @Test
    void everyPortImplementationOfThePersistenceAdapterIsADatabaseAccess() {
        DescribedPredicate<JavaClass> implementsAPort = DescribedPredicate.describe("beans implementing a port",
                c -> (c.isAnnotatedWith(ApplicationScoped.class) || c.isAnnotatedWith(Singleton.class))
                        && c.getAllRawInterfaces().stream()
                        .anyMatch(i -> i.getPackageName().startsWith("dev.voiceagent.application")));
        classes().that().resideInAPackage("dev.voiceagent.adapters.postgres..").and(implementsAPort)
                .should().beAnnotatedWith(DatabaseAccess.class)
                .allowEmptyShould(false)
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.voiceagent.adapters.postgres"));
    }
}
