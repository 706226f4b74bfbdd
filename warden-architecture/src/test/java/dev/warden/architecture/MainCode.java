package dev.warden.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** Warden's main code (tests excluded), imported once for every rule class in this fork. */
final class MainCode {

    private static JavaClasses classes;

    private MainCode() {
    }

    static synchronized JavaClasses classes() {
        if (classes == null) {
            classes = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.warden");
        }
        return classes;
    }
}
