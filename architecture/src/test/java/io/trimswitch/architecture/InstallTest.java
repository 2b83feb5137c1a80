package io.trimswitch.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code mvn install}, the most common Maven habit, works: a module that makes no jar (only tests, its jar skipped when
 * empty) says it installs nothing, or the install plugin fails on an artifact with no file.
 */
class InstallTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyModuleWithoutAJarInstallsNothing() throws IOException {
        final List<String> failing = new ArrayList<>();
        final Matcher modules = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (modules.find()) {
            final Path module = ROOT.resolve(modules.group(1));
            final String pom = Files.readString(module.resolve("pom.xml"));
            final boolean noJar = !Files.isDirectory(module.resolve("src/main")) && pom.contains("<skipIfEmpty>true</skipIfEmpty>");
            if (noJar && !(pom.contains("<maven.install.skip>true</maven.install.skip>") && pom.contains("<maven.deploy.skip>true</maven.deploy.skip>"))) {
                failing.add(modules.group(1));
            }
        }
        assertEquals(List.of(), failing, "modules that make no jar but would install one");
    }
}
