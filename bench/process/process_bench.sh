#!/usr/bin/env bash
# Whole-process timings of the CLI as a user feels them, side by side with `java -version` in the same run:
# warm-up runs first, then the commands alternate run by run; medians of wall time and of peak resident
# memory. Prints each command's median and its ratio to `java -version`. Each command is started both as
# `java -jar cli/target/trimswitch.jar` and through the launcher `cli/trimswitch`. The `scenario --version` row is
# the floor under every command: it starts the JVM with the tool's jar and archive and builds picocli's model of
# `scenario`, but builds and runs no switch. The next row replays two small captures a one-packet scenario wrote.
# The last row is not a whole process: it is the default scenario's three runs repeated in one JVM with the
# launcher's options until compiled (io.trimswitch.bench.CompiledScenario), the part of the default scenario that no
# start-up work can take away.
#
#   bench/process/process_bench.sh [RUNS]      (from the repository root, after the build, bench included)
set -euo pipefail
cd "$(dirname "$0")/../.."
# The JDK the launcher runs (TRIMSWITCH_JAVA), so that `java -version` and `java -jar` time the same JVM as cli/trimswitch.
. cli/jdk.sh

RUNS=${1:-5}
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "process_bench: RUNS must be a whole number of at least 1, got '$RUNS'" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "process_bench: needs GNU time (Debian package 'time')" >&2; exit 2; }
[ -f bench/target/benchmarks.jar ] || { echo "process_bench: needs bench/target/benchmarks.jar (mvn package)" >&2; exit 2; }

python3 - "$RUNS" "$TRIMSWITCH_JAVA" <<'PY'
import statistics, subprocess, sys, tempfile, time

runs = int(sys.argv[1])
java = sys.argv[2]
commands = {"java -version": [java, "-version"]}
# Named as a user would type them; run with the JDK's full path.
for name, launcher in (("java -jar cli/target/trimswitch.jar", [java, "-jar", "cli/target/trimswitch.jar"]), ("cli/trimswitch", ["cli/trimswitch"])):
    for args in (["scenario", "--packets", "1"], ["scenario"]):
        commands[" ".join([name] + args)] = launcher + args
commands["cli/trimswitch scenario --version"] = ["cli/trimswitch", "scenario", "--version"]
# What a capture-replay test suite starts once per case: two small captures, which a one-packet scenario writes.
captures = tempfile.TemporaryDirectory()
subprocess.run(["cli/trimswitch", "scenario", "--packets", "1", "--mechanism", "tofino", "--no-ideal", "--pcap-dir", captures.name],
               stdout=subprocess.DEVNULL, check=True)
replay = ["cli/trimswitch", "replay", "--in", f"0={captures.name}/tofino/port00-rx.pcap", "--in", f"1={captures.name}/tofino/port01-rx.pcap"]
commands["cli/trimswitch replay --in 0=A.pcap --in 1=B.pcap"] = replay

# The launcher's options for a virtual-time scenario (cli/trimswitch), on the classpath rather than -jar.
compiled = [java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xmn12m",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Dagrona.disable.bounds.checks=true",
            "-cp", "bench/target/benchmarks.jar", "io.trimswitch.bench.CompiledScenario", "10"]
compiled_name = "default scenario's runs, compiled (in one JVM, best of 5 after 5)"

def compiled_once():
    out = subprocess.run(compiled, capture_output=True, text=True, check=True).stdout
    return float(out.split()[0]) / 1000

def once(argv):
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - start
        return wall, int(rss.read().split()[-1]) / 1024

for argv in commands.values():
    once(argv)  # warm-up: page cache, the JDK's own archive
samples = {name: [] for name in commands}
compiled_samples = []
for _ in range(runs):
    for name, argv in commands.items():
        samples[name].append(once(argv))
    compiled_samples.append(compiled_once())

base = statistics.median(wall for wall, _ in samples["java -version"])
print(f"{runs} alternating runs each after one warm-up")
print(f"{'command':<66} {'median wall':>12} {'vs java -version':>17} {'median peak RSS':>16}")
for name, values in samples.items():
    wall = statistics.median(w for w, _ in values)
    rss = statistics.median(r for _, r in values)
    print(f"{name:<66} {wall * 1000:>9.0f} ms {wall / base:>16.1f}× {rss:>12.0f} MiB")
wall = statistics.median(compiled_samples)
print(f"{compiled_name:<66} {wall * 1000:>9.0f} ms {wall / base:>16.1f}× {'-':>16}")
PY
