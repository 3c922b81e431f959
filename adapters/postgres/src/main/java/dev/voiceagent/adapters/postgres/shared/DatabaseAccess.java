package dev.voiceagent.adapters.postgres.shared;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean of this adapter that talks to PostgreSQL: when one of its methods fails because the database is out
 * of reach, its caller sees a DatabaseUnavailableException ({@link DatabaseAccessInterceptor}). Every port
 * implementation of the adapter carries it (DatabaseAccessRuleTest in deploy checks that).
 */
@InterceptorBinding
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface DatabaseAccess {
}
