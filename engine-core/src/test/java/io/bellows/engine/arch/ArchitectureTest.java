package io.bellows.engine.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layout rules of engine-core's main code: the public API mentions no internal type, and a
 * compaction scheme's package is named only by itself and the scheme registry.
 */
class ArchitectureTest {
    private static final String API = "io.bellows.engine";
    private static final String INTERNAL = "io.bellows.engine.internal";
    private static final String SCHEMES = "io.bellows.engine.internal.compaction.";
    private static final String REGISTRY = "io.bellows.engine.internal.compaction.SchemeRegistry";
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(API);
    }

    @Test
    void publicApiSignaturesMentionNoInternalType() throws ClassNotFoundException {
        List<String> leaks = new ArrayList<>();
        int apiTypes = 0;
        for (JavaClass jc : classes) {
            if (!jc.getPackageName().equals(API)) {
                continue;
            }
            Class<?> c = Class.forName(jc.getName());
            if (!isExposed(c)) {
                continue;
            }
            apiTypes++;
            check(leaks, c + " supertype", c.getGenericSuperclass());
            for (Type t : c.getGenericInterfaces()) {
                check(leaks, c + " interface", t);
            }
            for (Method m : c.getDeclaredMethods()) {
                if (exposed(m.getModifiers()) && !m.isSynthetic()) {
                    check(leaks, m.toString(), m.getGenericReturnType());
                    for (Type t : m.getGenericParameterTypes()) {
                        check(leaks, m.toString(), t);
                    }
                    for (Type t : m.getGenericExceptionTypes()) {
                        check(leaks, m.toString(), t);
                    }
                }
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (exposed(k.getModifiers()) && !k.isSynthetic()) {
                    for (Type t : k.getGenericParameterTypes()) {
                        check(leaks, k.toString(), t);
                    }
                }
            }
            for (Field f : c.getDeclaredFields()) {
                if (exposed(f.getModifiers()) && !f.isSynthetic()) {
                    check(leaks, f.toString(), f.getGenericType());
                }
            }
        }
        assertFalse(apiTypes < 10, "found only " + apiTypes + " API types: the class import is broken");
        assertEquals(List.of(), leaks, "public API signatures naming internal types");
    }

    @Test
    void onlyASchemeAndTheRegistryNameAScheme() {
        Set<String> schemePackages = new TreeSet<>();
        for (JavaClass jc : classes) {
            if (jc.getPackageName().startsWith(SCHEMES)) {
                schemePackages.add(schemeOf(jc.getPackageName()));
            }
        }
        assertFalse(schemePackages.size() < 3, "scheme packages found: " + schemePackages);
        Set<String> violations = new TreeSet<>();
        for (JavaClass jc : classes) {
            String own = jc.getPackageName().startsWith(SCHEMES) ? schemeOf(jc.getPackageName()) : null;
            if (jc.getName().equals(REGISTRY)) {
                continue;
            }
            for (Dependency d : jc.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getPackageName();
                // A scheme may be built on LEVELED by composition (TRIAD reuses its picking below L0).
                boolean composesLeveled = own != null && schemeOf(target).equals(SCHEMES + "leveled");
                if (target.startsWith(SCHEMES) && !schemeOf(target).equals(own) && !composesLeveled) {
                    violations.add(jc.getName() + " -> " + d.getTargetClass().getName());
                }
            }
        }
        assertEquals(Set.of(), violations, "classes outside a scheme's package naming the scheme");
    }

    /** {@code io.bellows.engine.internal.compaction.flsm} for any class or subpackage under it. */
    private static String schemeOf(String pkg) {
        int end = pkg.indexOf('.', SCHEMES.length());
        return end < 0 ? pkg : pkg.substring(0, end);
    }

    private static boolean isExposed(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static boolean exposed(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void check(List<String> leaks, String where, Type t) {
        if (t != null && t.getTypeName().contains(INTERNAL + ".")) {
            leaks.add(where + " mentions " + t.getTypeName());
        }
    }
}
