package dev.orderpipeline;

import static com.tngtech.archunit.base.DescribedPredicate.and;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules of order-api's code that the compiler does not check: production never depends on the lab, the
 * lab uses production only through its public vocabulary, the contract stays a plain contract, and no package
 * cycle appears.
 */
class ArchitectureTests {

    private static final String PRODUCTION = "dev.orderpipeline.api..";
    private static final String LAB = "dev.orderpipeline.checkoutlab..";
    private static final String CONTRACT = "dev.orderpipeline.contract..";
    private static final String INVARIANTS = "dev.orderpipeline.invariants..";

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.orderpipeline");
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

    @Test
    void theContractIsPlainJava() {
        // common-model reaches this module as a jar: import its package from there
        var contract = new ClassFileImporter().importPackages("dev.orderpipeline.contract");
        classes()
                .that()
                .resideInAPackage(CONTRACT)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(CONTRACT, "java..", "org.jspecify..")
                .because("both apps and every tool read the contract: no framework in it")
                .check(contract);
    }

    @Test
    void featurePackagesHaveNoCycles() {
        slices().matching("dev.orderpipeline.api.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    @Test
    void topLevelPackagesHaveNoCycles() {
        slices().matching("dev.orderpipeline.(*)..").should().beFreeOfCycles().check(classes);
    }
}
