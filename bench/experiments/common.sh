# Sourced by the experiment scripts, after they define log: the Python that draws the plots, ping's figures, and the
# helpers of the end-to-end tests (await, remove_namespaces, await_switch, stop_switch).

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../cli/src/test/sh/await.sh
. "$here/../../cli/src/test/sh/await.sh"
: "${TRIMSWITCH:=$here/../../cli/trimswitch}"

# PLOT_PYTHON: the first python3 that has matplotlib (Debian's python3-matplotlib installs it for /usr/bin/python3).
# Without one the script says what to install, before it builds anything.
need_matplotlib() {
    local py
    for py in ${PLOT_PYTHON:-} python3 /usr/bin/python3; do
        if "$py" -c 'import matplotlib' 2>/dev/null; then PLOT_PYTHON=$py; return 0; fi
    done
    echo "$(basename "$0"): needs matplotlib for its plot: apt-get install python3-matplotlib" >&2
    exit 2
}

# need_tools TOOL...: each must be on the PATH, or the script names the missing one's Debian package and exits 2.
need_tools() {
    local tool pkg
    for tool in "$@"; do
        command -v "$tool" > /dev/null && continue
        case "$tool" in
            ping) pkg=iputils-ping ;; ip) pkg=iproute2 ;; memcslap) pkg=libmemcached-tools ;; *) pkg=$tool ;;
        esac
        echo "$(basename "$0"): needs $tool: apt-get install $pkg" >&2
        exit 2
    done
}

# need_root: namespaces and veths need it.
need_root() { [ "$(id -u)" = 0 ] || { echo "$(basename "$0"): needs root (network namespaces, veths)" >&2; exit 2; }; }

# positive NAME VALUE: VALUE must be a positive number, or exit 2 with one line.
positive() {
    [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] && [ "$(echo "$2" | tr -d '0.')" != "" ] || { echo "$(basename "$0"): $1 must be a positive number, not '$2'" >&2; exit 2; }
}
