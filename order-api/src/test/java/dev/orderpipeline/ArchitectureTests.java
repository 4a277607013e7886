package dev.orderpipeline;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules of order-api's code that the compiler does not check: the contract stays a plain contract, and no
 * package cycle appears. The lab's rules are checkout-lab's ({@code LabArchitectureTests}), where both sides are.
 */
class ArchitectureTests {

    private static final String CONTRACT = "dev.orderpipeline.contract..";

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.orderpipeline");
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
