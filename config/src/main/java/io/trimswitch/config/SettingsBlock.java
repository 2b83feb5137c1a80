package io.trimswitch.config;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A block of the settings: its withers ({@code withPipelines} and the like, one per component, each a new record) are
 * generated at build time into {@code <Block>Builder.With}, which the record implements, rather than written by hand.
 */
@RecordBuilder.Template(options = @RecordBuilder.Options(prefixEnclosingClassNames = false, enableWither = true))
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.TYPE)
@Inherited
@interface SettingsBlock {
}
