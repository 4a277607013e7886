package dev.orderpipeline.lab;

import java.util.Objects;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the lab's version from its jar's manifest. */
public final class LabVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {
            "order-pipeline lab "
                    + Objects.requireNonNullElse(LabVersion.class.getPackage().getImplementationVersion(), "dev"),
            "JDK " + Runtime.version()
        };
    }
}
