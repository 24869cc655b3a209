package io.bellows.engine.internal.util;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The field (or method) is read and written only while holding the named lock; a method so annotated
 * must be called with it held. Documentation for readers and reviewers (the JCIP convention), kept in
 * class files so a checker can be added without touching the sources.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface GuardedBy {
    /** The lock, as an expression readable from the annotated member: {@code "state.lock"}. */
    String value();
}
