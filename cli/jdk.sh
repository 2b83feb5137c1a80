# Sourced by the launcher, ./mvnw, .ci/run and the bench scripts: finds the JDK that trimswitch needs, the same way
# everywhere. JAVA_HOME when it is set and 25 or newer; else the newest JDK under /usr/lib/jvm (TRIMSWITCH_JDKS), saying
# in one line on stderr that it passed over an older JAVA_HOME; else `java` on the PATH. Sets TRIMSWITCH_JAVA_HOME
# (empty when only a bare `java` was found) and TRIMSWITCH_JAVA; when no JDK of 25 or newer is found it says in one line
# what to install and exits 2.
trimswitch_jdk_feature() {
    # The feature release of the JDK at $1 ('' for the PATH's java), in $feature: 17, 21, 25 ... A JDK's release file
    # says it without starting a JVM, which would cost the launcher a tenth of a second; the shell reads it itself, as
    # a process per JDK (sed, head) cost the launcher 10 to 50 ms of every start on a busy two-core host.
    feature=""
    if [ -n "$1" ] && [ -f "$1/release" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            case $line in
                JAVA_VERSION=\"[0-9]*)
                    line=${line#JAVA_VERSION=\"}
                    feature=${line%%[!0-9]*}
                    return
                    ;;
            esac
        done < "$1/release"
    else
        feature=$("${1:+$1/bin/}java" -XshowSettings:properties -version 2>&1 |
            sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1)
    fi
}

# The newest JDK under the JDKs' folder (TRIMSWITCH_JDKS, /usr/lib/jvm unless set): $best and $best_feature.
trimswitch_newest_jdk() {
    best=""
    best_feature=0
    for home in "${TRIMSWITCH_JDKS:-/usr/lib/jvm}"/*; do
        [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] && [ ! -L "$home" ] || continue
        trimswitch_jdk_feature "$home"
        if [ -n "$feature" ] && [ "$feature" -gt "$best_feature" ]; then
            best=$home
            best_feature=$feature
        fi
    done
}

trimswitch_find_jdk() {
    TRIMSWITCH_JAVA_HOME=""
    if [ -n "${JAVA_HOME:-}" ]; then
        TRIMSWITCH_JAVA_HOME=$JAVA_HOME
        trimswitch_jdk_feature "$JAVA_HOME"
        given_feature=$feature
        if [ -z "$given_feature" ] || [ "$given_feature" -lt 25 ]; then
            trimswitch_newest_jdk
        fi
        if { [ -z "$given_feature" ] || [ "$given_feature" -lt 25 ]; } && [ "$best_feature" -ge 25 ]; then
            # An older JAVA_HOME (a machine's default) with JDK 25 right beside it: take that one, and say so once (the
            # processes started from here inherit the JAVA_HOME chosen, and stay silent).
            echo "trimswitch: JAVA_HOME is JDK ${given_feature:-?} ($JAVA_HOME); using JDK $best_feature at $best" >&2
            TRIMSWITCH_JAVA_HOME=$best
            JAVA_HOME=$best
            export JAVA_HOME
        fi
    else
        trimswitch_newest_jdk
        TRIMSWITCH_JAVA_HOME=$best
    fi
    if [ -z "$TRIMSWITCH_JAVA_HOME" ] && ! command -v java >/dev/null 2>&1; then
        echo "trimswitch: no JDK found: install JDK 25 or newer (Temurin 25, say) or set JAVA_HOME" >&2
        exit 2
    fi
    TRIMSWITCH_JAVA=${TRIMSWITCH_JAVA_HOME:+$TRIMSWITCH_JAVA_HOME/bin/}java
    trimswitch_jdk_feature "$TRIMSWITCH_JAVA_HOME"
    if [ -z "$feature" ] || [ "$feature" -lt 25 ]; then
        echo "trimswitch: needs JDK 25 or newer, found ${feature:-no working JDK} at ${TRIMSWITCH_JAVA_HOME:-$(command -v java)}: install JDK 25 or newer (Temurin 25, say) under ${TRIMSWITCH_JDKS:-/usr/lib/jvm} or set JAVA_HOME to one" >&2
        exit 2
    fi
}

trimswitch_find_jdk
