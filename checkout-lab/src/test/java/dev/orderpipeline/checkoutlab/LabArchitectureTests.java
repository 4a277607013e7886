package dev.orderpipeline.checkoutlab;

import static com.tngtech.archunit.base.DescribedPredicate.and;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules between the lab and the product it runs inside. That production cannot load the lab is the build's
 * doing (order-api's jar holds none of it, {@code OrderApiJarTests}); these rules keep the code apart as well, so
 * that the lab can be left off the class path and production stays whole.
 */
class LabArchitectureTests {

    private static final String PRODUCTION = "dev.orderpipeline.api..";
    private static final String LAB = "dev.orderpipeline.checkoutlab..";
    private static final String INVARIANTS = "dev.orderpipeline.invariants..";

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        // order-api's main classes come from its classes jar; its test jar and this module's tests stay out
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.orderpipeline.api", "dev.orderpipeline.checkoutlab");
    }

    @Test
    void importsBothSides() {
        // a rule over an empty side would pass whatever the code does
        assertThat(classes.stream().anyMatch(type -> type.getPackageName().startsWith("dev.orderpipeline.api.")))
                .isTrue();
        assertThat(classes.containPackage("dev.orderpipeline.checkoutlab")).isTrue();
    }

    @Test
    void productionCodeDoesNotKnowTheLab() {
        noClasses()
                .that()
                .resideInAPackage(PRODUCTION)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(LAB, INVARIANTS)
                .because("the lab is an opt-in part: without it the production API must be whole, and with it the"
                        + " production code must run unchanged")
                .check(classes);
    }

    @Test
    void theLabUsesNoProductionRepositoryOrService() {
        // the lab reads and writes the tables with SQL of its own, as every other writer of the same rows does; it
        // borrows only production's vocabulary (caller, problems, configuration)
        noClasses()
                .that()
                .resideInAPackage(LAB)
                .should()
                .dependOnClassesThat(and(
                        resideInAPackage(PRODUCTION),
                        simpleNameEndingWith("Repository").or(simpleNameEndingWith("Service"))))
                .check(classes);
    }
}
