package io.trimswitch.bench;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * How every benchmark of the switch runs unless it says otherwise (JMH reads these from the superclass): operations a
 * second, three forks of five short warm-ups and five measurements, each fork a JVM as the tool starts it (Agrona's
 * buffers allowed their internals, their bounds checks off, as the CLI runs them) with a fixed heap large enough for
 * the largest pools.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 3, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xms4g", "-Xmx4g",
    "-Dagrona.disable.bounds.checks=true"})
public abstract class SwitchBenchmark {
}
